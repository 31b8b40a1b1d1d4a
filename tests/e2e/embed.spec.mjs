// End-to-end: Sprout inside course pages (issue #16). The example course page
// (static/examples/index.html, the page docs/embedding.md quotes) is served from a second origin
// by a tiny server started here, with its script tag pointed at the Sprout site under test, as a
// course author would write it. On it: a snippet runs and shows its result, and an earlier snippet
// of the same database runs first; snippets with the same database name share data, different
// names do not; a dataset file from the course site loads; the console runs a command; the custom
// lesson (Markdown from the course site) runs a step and checks an exercise; a Swedish collation
// sorts in the console (its data read from Sprout's origin); a malformed lesson
// shows an error naming its line; events reach the host page; the host page logs no errors.
// Then the iframe mode (embed.html: a console only), a deep link (#lesson=b5-optimizing&step=3)
// and a share link opened in a fresh browser profile. Screenshots of each go to the output dir.
// Usage: node embed.spec.mjs <url> <output-dir>
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { mkdtempSync, mkdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, extname, normalize, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const url = process.argv[2] ?? 'http://127.0.0.1:8080/';
const outDir = process.argv[3] ?? '.';
mkdirSync(outDir, { recursive: true });
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const examples = join(root, 'static', 'examples');
const dist = join(root, 'dist');

// A malformed lesson: the exercise has no check (line 8 is its heading).
const BROKEN_LESSON = `---
id: broken
title: "Broken"
source: C2
---
Intro.

## Exercise: no check
Count them.
\`\`\`solution
db.c.countDocuments()
\`\`\`
`;
const BROKEN_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<script src="${url}embed.js"></script></head><body>
<sprout-lesson src="broken-lesson.md" eager></sprout-lesson></body></html>`;

// The course site: static/examples/, its script tag pointed at the Sprout site under test.
const types = { '.html': 'text/html; charset=utf-8', '.md': 'text/markdown; charset=utf-8', '.json': 'application/json' };
const course = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let body;
  let type = types[extname(path)] ?? 'application/octet-stream';
  if (path.startsWith('/sprout/')) {
    // A copy of dist/ under a sub-path of the course site (self-hosting).
    const file = normalize(join(dist, path.slice('/sprout/'.length) || 'index.html'));
    if (!file.startsWith(dist) || !existsSync(file)) { res.writeHead(404); res.end('not found'); return; }
    const distTypes = { ...types, '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm', '.css': 'text/css' };
    res.writeHead(200, { 'Content-Type': distTypes[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
    res.end(readFileSync(file));
    return;
  }
  if (path === '/broken.html') body = BROKEN_PAGE;
  else if (path === '/broken-lesson.md') body = BROKEN_LESSON;
  else {
    const file = normalize(join(examples, path === '/' ? 'index.html' : path));
    if (!file.startsWith(examples) || !existsSync(file)) { res.writeHead(404); res.end('not found'); return; }
    body = readFileSync(file, 'utf8');
    type = types[extname(file)] ?? type;
    if (path === '/' || path.endsWith('.html')) body = body.replace('src="../embed.js"', `src="${url}embed.js"`);
  }
  res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-cache' });
  res.end(body);
});
await new Promise((resolve) => course.listen(0, '127.0.0.1', resolve));
// Another origin than the Sprout site's (another port).
const courseUrl = `http://127.0.0.1:${course.address().port}/`;

const launch = (profile) => chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1100, height: 800 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const context = await launch(mkdtempSync(join(tmpdir(), 'sprout-e2e-embed-')));
let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) { passed++; console.log(`ok - ${name}`); }
  else { failed++; console.log(`not ok - ${name}${detail ? `: ${detail}` : ''}`); }
}
const text = async (target, selector) => ((await target.locator(selector).first().textContent()) ?? '').trim();
async function ready(target, timeout = 60000) {
  await target.locator('[data-testid=status][data-ready=true]').first().waitFor({ state: 'attached', timeout });
}
// Runs snippet `n` (from 0) of the course page and returns its output once it has one.
async function runSnippet(page, n) {
  const snippet = page.locator('sprout-snippet').nth(n);
  // Run disables the button until the answer is shown.
  await snippet.locator('button').click();
  await page.waitForFunction((i) => {
    const el = document.querySelectorAll('sprout-snippet')[i];
    return el.shadowRoot.querySelector('button').disabled === false && el.hasAttribute('data-state');
  }, n, { timeout: 90000 });
  return ((await snippet.locator('pre').textContent()) ?? '').trim();
}
async function typeAndRun(frame, command) {
  const before = await frame.locator('.entry').count();
  await frame.locator('[data-testid=editor]').fill(command);
  await frame.locator('[data-testid=editor]').press('Control+Enter');
  await frame.locator('.entry').nth(before).waitFor({ timeout: 60000 });
  const result = frame.locator('.entry').nth(before).locator('.result');
  return (await result.count()) ? ((await result.first().textContent()) ?? '').trim() : '';
}

try {
  // --- docs/embedding.md shows the example page's own blocks.
  const doc = readFileSync(join(root, 'docs', 'embedding.md'), 'utf8');
  const pageSource = readFileSync(join(examples, 'index.html'), 'utf8');
  const quoted = [...doc.matchAll(/<!-- tested: ([\w-]+) -->\n```html\n([\s\S]*?)\n```/g)];
  const differing = quoted.filter(([, name, code]) => {
    const m = pageSource.match(new RegExp(`<!-- example: ${name} -->\\n([\\s\\S]*?)\\n\\s*<!-- /example -->`));
    return !m || m[1].trim() !== code.trim();
  }).map(([, name]) => name);
  check('docs/embedding.md quotes the five examples the test runs', quoted.length === 5 && differing.length === 0,
    `${quoted.length} quoted, differing: ${differing.join()}`);

  // --- The course page, on its own origin.
  const page = await context.newPage();
  const hostErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') hostErrors.push(m.text()); });
  page.on('pageerror', (e) => hostErrors.push(String(e)));
  await page.goto(courseUrl);
  await page.evaluate(() => {
    window.sproutEvents = [];
    for (const name of ['ran', 'result', 'solved', 'ready', 'loaded']) {
      document.addEventListener(name, (e) => window.sproutEvents.push({
        name, tag: e.target.tagName.toLowerCase(), detail: JSON.parse(JSON.stringify(e.detail ?? null)) }));
    }
  });
  check('the course page is on another origin than Sprout',
    new URL(courseUrl).origin !== new URL(url).origin, `${courseUrl} vs ${url}`);
  check('four snippets became runnable', (await page.locator('sprout-snippet button').count()) === 4,
    String(await page.locator('sprout-snippet button').count()));
  const editable = await page.locator('pre code').first().getAttribute('contenteditable');
  check('a snippet\'s code is editable', editable === 'plaintext-only' || editable === 'true', editable);
  const readonly = await page.locator('pre code').nth(3).getAttribute('contenteditable');
  check('a readonly snippet\'s code is not editable', readonly === null, readonly);

  // The second "pantry" snippet first: the first one runs before it, in page order.
  const second = await runSnippet(page, 1);
  check('a snippet runs and shows its result', second.includes("name: 'apple'") && !second.includes('pear'), second);
  const first = ((await page.locator('sprout-snippet').nth(0).locator('pre').textContent()) ?? '');
  check('the earlier snippet of the same database ran first', first.includes('insertedIds'), first);
  const isolated = await runSnippet(page, 2);
  check('a snippet with another database name does not see that data', /^0$/.test(isolated), isolated);
  // Edit the second snippet: the same database still holds the first one's documents.
  await page.locator('pre code').nth(1).evaluate((code) => { code.textContent = 'db.fruit.find({qty: 0})'; });
  const edited = await runSnippet(page, 1);
  check('an edited snippet runs its new code on the shared data', edited.includes("name: 'pear'"), edited);
  const shop = await runSnippet(page, 3);
  check('a dataset file from the course site loads (with the setup code)',
    shop.includes("name: 'ruler'") && shop.includes("name: 'pen'") && !shop.includes('notebook'), shop);
  await page.locator('sprout-snippet').nth(0).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(outDir, 'embed-snippets.png') });
  const ranEvents = await page.evaluate(() => window.sproutEvents.filter((e) => e.tag === 'sprout-snippet'));
  check('snippets dispatch ran and result events',
    ranEvents.some((e) => e.name === 'ran' && e.detail.code.includes('find')) && ranEvents.some((e) => e.name === 'result'),
    JSON.stringify(ranEvents).slice(0, 300));

  // The console: scrolled into view, it starts, with its dataset.
  await page.locator('sprout-console').scrollIntoViewIfNeeded();
  const consoleFrame = page.frameLocator('sprout-console iframe');
  await ready(consoleFrame);
  const note = await text(consoleFrame, '.console-note');
  check('the console loaded its dataset', note.includes('ecommerce.products (10)'), note);
  const count = await typeAndRun(consoleFrame, 'db.products.countDocuments({price: {$gt: 60}})');
  check('the console runs a command', count === '4', count);
  await typeAndRun(consoleFrame, 'db.products.find({price: 50}).explain("executionStats")');
  const summary = await text(consoleFrame, '[data-testid=plan-summary]');
  check('the console has the explain view', summary.includes('collection scan'), summary);
  check('the console shows no app chrome', (await consoleFrame.locator('.topbar, .sidebar, .lesson-panel').count()) === 0);
  await page.locator('sprout-console').screenshot({ path: join(outDir, 'embed-console.png') });
  const consoleEvents = await page.evaluate(() => window.sproutEvents.filter((e) => e.tag === 'sprout-console').map((e) => e.name));
  check('the console dispatches ran events to the host page', consoleEvents.includes('ran'), consoleEvents.join());
  // A tailored collation inside the widget: the worker reads collation/sv.postcard from Sprout's
  // origin (the iframe's), not the course page's.
  const swedish = await typeAndRun(consoleFrame, 'db.words.insertMany([{w: "ö"}, {w: "z"}, {w: "a"}]); ' +
    'db.words.find({}, {_id: 0}).sort({w: 1}).collation({locale: "sv"}).toArray().map((d) => d.w).join(" ")');
  check('a tailored collation works in the widget on another origin', swedish.includes('a z ö'), swedish);

  // The custom lesson: Markdown from the course site, a step run, an exercise checked.
  await page.locator('sprout-lesson').scrollIntoViewIfNeeded();
  const lessonFrame = page.frameLocator('sprout-lesson iframe');
  await lessonFrame.locator('[data-testid=lesson-title]').waitFor({ timeout: 60000 });
  check('the custom lesson is shown', (await text(lessonFrame, '[data-testid=lesson-title]')).includes('Cheap products'));
  await lessonFrame.locator('[data-testid=next]').click();
  await lessonFrame.locator('[data-testid=run-step]:not([disabled])').waitFor({ timeout: 60000 });
  await lessonFrame.locator('[data-testid=run-step]').click();
  await lessonFrame.locator('[data-testid=step-verdict]').waitFor({ timeout: 60000 });
  const verdict = await text(lessonFrame, '[data-testid=step-verdict]');
  check('a step of the custom lesson runs and matches', verdict.startsWith('✓'), verdict);
  await lessonFrame.locator('[data-testid=next]').click();
  await lessonFrame.locator('[data-testid=next]').click();
  await lessonFrame.locator('[data-testid=exercise-title]').waitFor();
  await lessonFrame.locator('[data-testid=answer]').fill('db.products.countDocuments({price: {$gt: 70}})');
  await lessonFrame.locator('[data-testid=check]').click();
  await lessonFrame.locator('[data-testid=check-result]').waitFor({ timeout: 60000 });
  const wrong = await text(lessonFrame, '[data-testid=check-result]');
  check('a wrong answer to the custom exercise fails', wrong.startsWith('✗'), wrong);
  await lessonFrame.locator('[data-testid=answer]').fill('db.products.countDocuments({price: {$gte: 60}})');
  await lessonFrame.locator('[data-testid=check]').click();
  await lessonFrame.locator('[data-testid=check-result].ok').waitFor({ timeout: 60000 });
  check('the right answer passes', (await text(lessonFrame, '[data-testid=check-result]')).startsWith('✓'));
  await page.waitForFunction(() => window.sproutEvents.some((e) => e.name === 'solved'), null, { timeout: 10000 });
  const solved = await page.evaluate(() => window.sproutEvents.find((e) => e.name === 'solved'));
  check('the lesson dispatches solved', solved.detail.lesson === 'course-cheap-products' && solved.detail.exercise === 1,
    JSON.stringify(solved));
  await page.locator('sprout-lesson').screenshot({ path: join(outDir, 'embed-lesson.png') });
  await page.screenshot({ path: join(outDir, 'embed-course-page.png'), fullPage: true });
  check('no console errors on the host page', hostErrors.length === 0, hostErrors.join('; '));

  // A malformed lesson: the error names the line.
  await page.goto(`${courseUrl}broken.html`);
  await page.waitForFunction(() => document.querySelector('sprout-lesson')?.getAttribute('data-state') === 'error',
    null, { timeout: 60000 });
  const problem = await text(page, 'sprout-lesson .problem');
  check('a malformed lesson shows an error naming the line',
    problem.includes('broken-lesson.md:8: an exercise needs a ```check block'), problem);
  await page.screenshot({ path: join(outDir, 'embed-lesson-error.png') });

  // --- The iframe mode: embed.html with URL parameters, a console only.
  const frameErrors = [];
  page.on('pageerror', (e) => frameErrors.push(String(e)));
  await page.goto(`${url}embed.html?view=console&db=iframe-mode&storage=memory&dataset=b5-optimizing&theme=dark&lang=zh`);
  await ready(page);
  check('the iframe mode shows a console only',
    (await page.locator('.console [data-testid=editor]').count()) === 1
      && (await page.locator('.topbar, .sidebar, .lesson-panel').count()) === 0);
  check('the iframe mode takes its theme and language',
    (await page.getAttribute('html', 'data-theme')) === 'dark' && (await page.getAttribute('html', 'lang')) === 'zh-CN');
  const names = await typeAndRun(page, 'db.products.find({price: {$lt: 45}}, {_id: 0, name: 1})');
  check('the iframe mode runs on its dataset', names.includes('Product 8') && names.includes('Product 9'), names);
  await page.screenshot({ path: join(outDir, 'embed-iframe-mode.png') });
  check('no page errors in the iframe mode', frameErrors.length === 0, frameErrors.join('; '));

  // --- Deep links.
  await page.goto(`${url}#lesson=b5-optimizing&step=3`);
  await page.locator('[data-testid=step-title]').waitFor({ timeout: 60000 });
  const title = await text(page, '[data-testid=step-title]');
  check('#lesson=b5-optimizing&step=3 opens that step', title.startsWith('3.'), title);
  await page.locator('[data-testid=next]').click();
  await page.waitForFunction(() => location.hash === '#lesson=b5-optimizing&step=4');
  check('the URL follows the learner', true);
  await page.screenshot({ path: join(outDir, 'embed-deep-link.png') });
  await page.reload();
  await page.locator('[data-testid=step-title]').waitFor({ timeout: 60000 });
  check('opening the URL again restores the step', (await text(page, '[data-testid=step-title]')).startsWith('4.'));

  // --- Offline: the service worker serves the app with the network off.
  await page.goto(url);
  await ready(page);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
  await context.setOffline(true);
  await page.reload();
  await ready(page);
  const offline = await typeAndRun(page, 'db.offline.insertOne({_id: 1}); db.offline.countDocuments()');
  check('the site works offline after the first visit', offline === '1', offline);
  await context.setOffline(false);

  // --- A copy of dist/ under a sub-path of another site.
  await page.goto(`${courseUrl}sprout/embed.html?view=console&db=subpath&storage=memory`);
  await ready(page);
  const sub = await typeAndRun(page, '6 * 7');
  check('dist/ works from a sub-path (embed.html)', sub === '42', sub);
  await page.goto(`${courseUrl}sprout/?storage=memory`);
  await ready(page);
  const app = await typeAndRun(page, '"sub" + "path"');
  check('dist/ works from a sub-path (the app)', app.replace(/['"]/g, '') === 'subpath', app);

  // --- Share links: data and commands, made in one browser profile, opened in a fresh one.
  const source = await launch(mkdtempSync(join(tmpdir(), 'sprout-e2e-embed-share-')));
  let link = '';
  try {
    const sharer = await source.newPage();
    await sharer.goto(`${url}?db=share-source`);
    await ready(sharer);
    await typeAndRun(sharer, 'db.notes.insertMany([{_id: 1, text: "hello"}, {_id: 2, text: "world", at: ISODate("2025-01-02T00:00:00Z")}])');
    await typeAndRun(sharer, 'db.notes.find({_id: 2})');
    await sharer.locator('[data-testid=share]').click();
    await sharer.locator('[data-testid=share-link]').waitFor({ timeout: 30000 });
    link = await sharer.locator('[data-testid=share-link]').inputValue();
    check('Share makes a link with the state in its fragment', /#share=[A-Za-z0-9_-]+$/.test(link) && !link.includes('?'), link.slice(0, 120));
    await sharer.screenshot({ path: join(outDir, 'embed-share.png') });
  } finally {
    await source.close();
  }
  const fresh = await launch(mkdtempSync(join(tmpdir(), 'sprout-e2e-embed-fresh-')));
  try {
    const receiver = await fresh.newPage();
    const receiverErrors = [];
    receiver.on('pageerror', (e) => receiverErrors.push(String(e)));
    await receiver.goto(link);
    await ready(receiver);
    await receiver.waitForFunction(() => [...document.querySelectorAll('.console-note')]
      .some((n) => n.textContent.includes('shared link')), null, { timeout: 30000 });
    const notes = await receiver.locator('.console-note').allTextContents();
    check('the shared data is loaded', notes.some((n) => n.includes('test.notes (2)')), notes.join(' | '));
    check('the receiver gets a fresh database of their own', /\?db=shared-/.test(receiver.url()) && !receiver.url().includes('#share'), receiver.url());
    const editor = await receiver.locator('[data-testid=editor]').inputValue();
    check('the shared commands are in the editor', editor.includes('insertMany') && editor.includes('db.notes.find({_id: 2})'), editor);
    await receiver.screenshot({ path: join(outDir, 'embed-share-opened.png') });
    const world = await typeAndRun(receiver, 'db.notes.find({_id: 2})');
    check('the receiver sees the same data', world.includes("text: 'world'") && world.includes("ISODate('2025-01-02T00:00:00.000Z')"), world);
    check('no page errors when opening a share link', receiverErrors.length === 0, receiverErrors.join('; '));
  } finally {
    await fresh.close();
  }
} catch (e) {
  failed++;
  console.log(`not ok - exception: ${e.stack ?? e}`);
} finally {
  await context.close();
  course.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
