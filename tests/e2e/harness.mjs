// What every end-to-end spec shares: Debian's Chromium launched headless with a fresh profile
// (Playwright), `check()` printing TAP-like `ok - name` / `not ok - name: detail` lines, and
// `finish()` closing the browser, printing the counts and exiting 1 when any check failed.
// Usage in a spec (run as `node <spec> <url> <output-dir>`):
//   const { context, url, outDir, pageErrors } = await launch({ name: 'storage' });
//   try { ...; check('name', condition, detail) } catch (e) { check('exception', false, e) }
//   finally { await finish() }
// Pages opened with `context.newPage()` report their uncaught errors into `pageErrors`.
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let passed = 0;
let failed = 0;
let context = null;

// Starts Chromium. `name` names the temporary profile; `viewport` is the pages' size.
// `serviceWorkers: 'block'` keeps Sprout's service worker (static/sw.js) out of a spec whose pages
// Playwright serves with `route` (a service worker's fetches bypass Playwright's routes).
export async function launch({ name = 'e2e', viewport = { width: 1100, height: 700 }, serviceWorkers = 'allow' } = {}) {
  const url = process.argv[2] ?? 'http://127.0.0.1:8080/';
  const outDir = process.argv[3] ?? '.';
  mkdirSync(outDir, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), `sprout-e2e-${name}-`));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport,
    acceptDownloads: true,
    serviceWorkers,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const pageErrors = [];
  context.on('page', (page) => page.on('pageerror', (e) => pageErrors.push(String(e))));
  for (const page of context.pages()) page.on('pageerror', (e) => pageErrors.push(String(e)));
  return { context, url, outDir, pageErrors };
}

// Counts and prints one check.
export function check(name, ok, detail) {
  if (ok) { passed++; console.log(`ok - ${name}`); }
  else { failed++; console.log(`not ok - ${name}${detail ? `: ${detail}` : ''}`); }
}

// Closes the browser, prints the counts and ends the process (status 1 when a check failed).
export async function finish() {
  if (context) await context.close().catch(() => {});
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

// Types `command` into the playground's editor, submits it (Ctrl+Enter, or a click on the
// on-screen Run button with `click: true`, as a phone would) and waits for its new history entry.
// Returns that entry's locator.
export async function submit(page, command, { timeout = 60000, click = false } = {}) {
  const before = await page.locator('.entry').count();
  await page.fill('[data-testid=editor]', command);
  if (click) await page.click('[data-testid=run]');
  else await page.press('[data-testid=editor]', 'Control+Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, before, { timeout });
  return page.locator('.entry').last();
}

// Runs a command and returns its result's text view ('' when the result is not shown as text:
// an explain shows its plan first).
export async function run(page, command, timeout = 60000) {
  const text = (await submit(page, command, { timeout })).locator('.result');
  return (await text.count()) > 0 ? ((await text.first().textContent()) ?? '') : '';
}

// Runs a command and returns the whole entry's text (the command echoed, then its output).
export async function runEntry(page, command, options = {}) {
  return (await (await submit(page, command, options)).textContent()) ?? '';
}
