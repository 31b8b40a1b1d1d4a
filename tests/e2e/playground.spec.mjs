// End-to-end: the served playground in Debian's Chromium, driven by Playwright.
// Inserts a product, finds it, reloads the page (IndexedDB) and finds it again; bad input shows
// errors and the page keeps working; a hanging command is stopped by replacing the shell worker
// without losing data. Saves screenshots and the time to first result.
// Usage: node playground.spec.mjs <url> <output-dir>
import { chromium } from 'playwright-core';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const url = process.argv[2] ?? 'http://127.0.0.1:8080/';
const outDir = process.argv[3] ?? '.';
mkdirSync(outDir, { recursive: true });
const profile = mkdtempSync(join(tmpdir(), 'sprout-e2e-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1100, height: 700 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const pageErrors = [];
let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) { passed++; console.log(`ok - ${name}`); }
  else { failed++; console.log(`not ok - ${name}${detail ? `: ${detail}` : ''}`); }
}
async function run(page, command) {
  const before = await page.locator('.entry').count();
  await page.fill('[data-testid=editor]', command);
  await page.press('[data-testid=editor]', 'Control+Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, before, { timeout: 60000 });
  return (await page.locator('.entry .result').last().textContent()) ?? '';
}
async function ready(page) {
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=status]');
    return s && s.textContent.startsWith('ready');
  }, null, { timeout: 30000 });
}

try {
  let page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const t0 = Date.now();
  await page.goto(url);
  await ready(page);
  const status = await page.textContent('[data-testid=status]');
  check('the page loads and the engine starts', status.includes('IndexedDB'), status);

  const inserted = await run(page, 'db.products.insertOne({name: "Product 1", price: 10})');
  const firstResultMs = Date.now() - t0;
  check('insertOne acknowledges', inserted.includes('acknowledged: true') && inserted.includes("insertedId: ObjectId('"), inserted);
  const found = await run(page, 'db.products.find({price: 10})');
  check('find returns the product', found.includes("name: 'Product 1'") && found.includes('price: 10'), found);
  const sidebar = await page.textContent('[data-testid=sidebar]');
  check('the sidebar lists the collection with its count', /products\s*1/.test(sidebar), sidebar);
  await page.screenshot({ path: join(outDir, 'playground.png') });

  const syntax = await run(page, 'db.products.find({price: }');
  check('a syntax error is shown', (await page.locator('.entry .result.error').count()) >= 1 && /SyntaxError/.test(syntax), syntax);
  const unknown = await run(page, 'db.products.frobnicate()');
  check('an unknown method is a TypeError', /TypeError/.test(unknown), unknown);
  const badFilter = await run(page, 'db.products.find({price: {$frob: 1}})');
  check('a bad filter is a MongoServerError', /MongoServerError\[BadValue\]: unknown operator: \$frob/.test(badFilter), badFilter);
  const loop = await run(page, 'while (true) {}');
  check('a runaway loop is stopped', /RangeError/.test(loop), loop);

  // A catastrophic regular expression hangs the shell worker, not the page: the page still
  // answers, Stop replaces the worker, and the stored data is still there.
  const before = await page.locator('.entry').count();
  await page.fill('[data-testid=editor]', "/(a+)+$/.test('a'.repeat(40) + 'b')");
  await page.press('[data-testid=editor]', 'Control+Enter');
  await page.waitForSelector('[data-testid=stop]', { timeout: 5000 });
  await page.waitForTimeout(1500);
  const stillRunning = (await page.locator('.entry').count()) === before;
  const responsive = await page.evaluate(() => new Promise((resolve) => {
    const t = performance.now();
    setTimeout(() => resolve(performance.now() - t), 0);
  }));
  check('a hanging command leaves the page responsive', stillRunning && responsive < 500, `running=${stillRunning} timer=${responsive}ms`);
  await page.screenshot({ path: join(outDir, 'playground-running.png') });
  await page.click('[data-testid=stop]');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, before, { timeout: 30000 });
  const stopped = (await page.locator('.entry .result').last().textContent()) ?? '';
  check('Stop interrupts the command', /Interrupted/.test(stopped), stopped);
  const afterStop = await run(page, 'db.products.countDocuments()');
  check('after Stop the data is still there', afterStop.trim() === '1', afterStop);

  await page.reload();
  await ready(page);
  const again = await run(page, 'db.products.find({price: 10})');
  check('after a reload the document is still there (IndexedDB)', again.includes("name: 'Product 1'"), again);
  const collections = await run(page, 'show collections');
  check('show collections lists products', collections.trim() === 'products', collections);
  await page.screenshot({ path: join(outDir, 'playground-after-reload.png') });
  check('no uncaught page errors', pageErrors.length === 0, pageErrors.join('; '));
  writeFileSync(join(outDir, 'timings.json'), JSON.stringify({ firstResultMs }, null, 2));
  console.log(`first result after ${firstResultMs} ms (load + engine start + insertOne)`);
} catch (e) {
  failed++;
  console.log(`not ok - exception: ${e}`);
} finally {
  await context.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
