// End-to-end: the page as a new learner meets it, on phones and desktops, by keyboard and with
// a screen reader's eyes (issue #20). At 360×740, 390×844, 768×1024 and 1280×800: no horizontal
// page scroll, on narrow screens one column at a time behind a tab bar, an editor at least 300 px
// wide with an on-screen Run button, output kept inside its box, a status line on one line.
// axe-core (WCAG 2.2 AA and best practices) finds no violations on the start page, the console
// after commands, the explain view, a lesson step and an exercise, in both themes and both
// languages. Escape then Tab leaves the editor. Errors that help: `db.people.fnd()` names the
// callee and suggests find, a read from a missing collection says so, `help` at three levels
// prints help (in Chinese too), EJSON round-trips. The explain view shows bounds, works, the
// time, a warning for a collection scan, the plans side by side and a plain reading; its text
// view hides serverParameters. A chapter 8 pipeline (B8-C9) shows the count after each stage.
// A wrong exercise answer shows its own documents beside the expected ones, once. The
// transcript survives a reload; "Run this step" leaves the step in the editor. Saves a
// screenshot of each.
// Usage: node learner.spec.mjs <url> <output-dir>
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEntry } from './harness.mjs';

const url = process.argv[2] ?? 'http://127.0.0.1:8080/';
const outDir = process.argv[3] ?? '.';
mkdirSync(outDir, { recursive: true });
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const LESSON = 'b5-optimizing';
const SIZES = [[360, 740], [390, 844], [768, 1024], [1280, 800]];
// Narrower than this, the page shows one column at a time (static/style.css).
const NARROW = 900;

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) { passed++; console.log(`ok - ${name}`); }
  else { failed++; console.log(`not ok - ${name}${detail ? `: ${detail}` : ''}`); }
}
async function newContext(width, height) {
  const profile = mkdtempSync(join(tmpdir(), 'sprout-e2e-learner-'));
  return chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width, height },
    hasTouch: width < NARROW,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
async function ready(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.dataset.ready === 'true',
    null, { timeout: 30000 });
}
async function entries(page) { return page.locator('.entry').count(); }
// Runs a command with a click on the on-screen Run button, as a phone would.
const run = (page, command) => runEntry(page, command, { click: true });
// The page's width against the window's: nothing may stick out sideways.
async function overflow(page) {
  return page.evaluate(() => {
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && e.getClientRects().length)
      .filter((e) => !e.closest('.explain, .doc-table-wrap, .code-input'))
      .slice(0, 3).map((e) => e.className || e.tagName);
    return { page: document.documentElement.scrollWidth, window: window.innerWidth, wide };
  });
}
async function box(page, selector) {
  return page.locator(selector).first().boundingBox();
}
async function axe(page, name) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => `${v.id} (${v.nodes.length}: ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', ')})`);
  });
  check(`axe: no violations on ${name}`, result.length === 0, result.join('; '));
}
async function openLesson(page) {
  if (await page.locator('[data-testid=tab-lesson]').isVisible()) await page.click('[data-testid=tab-lesson]');
  await page.locator(`[data-lesson=${LESSON}]`).scrollIntoViewIfNeeded();
  await page.click(`[data-lesson=${LESSON}]`);
  await page.waitForSelector('[data-testid=lesson]');
  await page.waitForSelector('[data-testid=data-note]', { timeout: 30000 });
}

const pageErrors = [];
try {
  // 1. Layout at four sizes.
  for (const [width, height] of SIZES) {
    const tag = `${width}×${height}`;
    const context = await newContext(width, height);
    const page = context.pages()[0] ?? await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(url);
    await ready(page);
    const narrow = width < NARROW;
    const tabs = await page.locator('[data-testid=pane-tabs]').isVisible();
    check(`${tag}: the tab bar shows on narrow screens only`, tabs === narrow);
    const editor = await box(page, '[data-testid=editor]');
    check(`${tag}: the editor is at least 300 px wide`, editor && editor.width >= 300, JSON.stringify(editor));
    const runButton = await box(page, '[data-testid=run]');
    check(`${tag}: the Run button is on screen and at least 24 px`,
      runButton && runButton.x >= 0 && runButton.x + runButton.width <= width && runButton.y + runButton.height <= height
        && runButton.height >= 24, JSON.stringify(runButton));
    const status = await box(page, '[data-testid=status]');
    const lineHeight = await page.$eval('[data-testid=status]', (e) => parseFloat(getComputedStyle(e).lineHeight) || 20);
    check(`${tag}: the status line stays on one line`, status && status.height <= lineHeight * 1.5 + 2, JSON.stringify(status));
    const lang = await box(page, '[data-testid=lang-zh]');
    check(`${tag}: the language switch is on screen`, lang && lang.x + lang.width <= width, JSON.stringify(lang));
    await run(page, 'db.people.insertMany([{name: "Ada Lovelace", city: "London", note: "a long line of text that a narrow screen has to wrap somewhere inside its box"}, {name: "Grace Hopper", city: "Arlington"}])');
    await run(page, 'db.people.find({}, {_id: 0})');
    const out = await overflow(page);
    check(`${tag}: no horizontal page scroll after long output`, out.page <= out.window && out.wide.length === 0, JSON.stringify(out));
    const entry = await box(page, '.entry >> nth=-1');
    check(`${tag}: the output stays inside the window`, entry && entry.x >= 0 && entry.x + entry.width <= width, JSON.stringify(entry));
    await page.screenshot({ path: join(outDir, `layout-${width}x${height}-console.png`) });
    if (narrow) {
      await page.click('[data-testid=tab-data]');
      const sidebar = await page.locator('[data-testid=sidebar]').isVisible();
      const consoleShown = await page.locator('[data-testid=editor]').isVisible();
      check(`${tag}: the Data tab shows the collections alone`, sidebar && !consoleShown);
      await openLesson(page);
      const lessonBox = await box(page, '[data-testid=lesson]');
      check(`${tag}: an open lesson takes the whole width`, lessonBox && lessonBox.width >= width - 2, JSON.stringify(lessonBox));
      const out2 = await overflow(page);
      check(`${tag}: no horizontal page scroll in a lesson`, out2.page <= out2.window && out2.wide.length === 0, JSON.stringify(out2));
      await page.screenshot({ path: join(outDir, `layout-${width}x${height}-lesson.png`) });
      await page.click('[data-testid=tab-console]');
      check(`${tag}: with a lesson open the console is reachable`, await page.locator('[data-testid=editor]').isVisible());
      const tap = await box(page, '[data-testid=editor]');
      const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.dataset.testid ?? '',
        { x: tap.x + tap.width / 2, y: tap.y + tap.height / 2 });
      check(`${tag}: a tap on the editor lands in the editor`, hit === 'editor', hit);
    }
    await context.close();
  }

  // 2. Accessibility and keyboard, at desktop size.
  const context = await newContext(1280, 800);
  const page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(url);
  await ready(page);
  await axe(page, 'the start page');
  await page.click('[data-testid=editor]');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName);
  check('Escape then Tab leaves the editor', focused !== 'editor', focused);
  const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  check('the focused control shows a focus outline', ring !== 'none', ring);
  await run(page, 'db.products.insertMany([{name: "pen", price: 2}, {name: "book", price: 12}])');
  await run(page, 'db.products.createIndex({price: 1})');
  await run(page, 'db.products.find({price: {$gt: 5}})');
  await axe(page, 'the console after commands');
  await run(page, 'db.products.find({price: {$gt: 5}}).explain("executionStats")');
  await axe(page, 'the explain view');
  await page.screenshot({ path: join(outDir, 'a11y-explain.png') });
  await page.click('[data-testid=theme-toggle]');
  await axe(page, 'the console in the dark theme');
  await page.click('[data-testid=lang-zh]');
  await axe(page, 'the console in Chinese, dark theme');
  await page.click('[data-testid=lang-en]');
  await page.click('[data-testid=theme-toggle]');
  await openLesson(page);
  await page.click('[data-testid=next]');
  await page.waitForSelector('[data-testid=run-step]');
  await page.click('[data-testid=run-step]');
  await page.waitForSelector('[data-testid=step-verdict]', { timeout: 30000 });
  await axe(page, 'a lesson step');
  await page.click('[data-testid=page-strip] button >> text=E1');
  await page.waitForSelector('[data-testid=exercise-title]');
  await page.fill('[data-testid=answer]', 'db.customers.createIndex({email: 1})');
  await page.click('[data-testid=check]');
  await page.waitForSelector('[data-testid=check-result]', { timeout: 30000 });
  await axe(page, 'an exercise with a wrong answer');
  await page.screenshot({ path: join(outDir, 'a11y-exercise.png') });
  await page.click('[data-testid=theme-toggle]');
  await page.click('[data-testid=lang-zh]');
  await axe(page, 'an exercise in Chinese, dark theme');
  await page.screenshot({ path: join(outDir, 'a11y-exercise-zh-dark.png') });
  await context.close();

  // 3. Errors that help, help, EJSON; the explain and stage views; exercise feedback.
  const ctx3 = await newContext(1280, 800);
  const p3 = ctx3.pages()[0] ?? await ctx3.newPage();
  p3.on('pageerror', (e) => pageErrors.push(String(e)));
  await p3.goto(url);
  await ready(p3);
  await run(p3, 'db.people.insertOne({name: "Ada", city: "London"})');
  await p3.fill('[data-testid=editor]', '');
  await p3.click('[data-testid=editor]');
  await p3.keyboard.type('db.people.find({');
  await p3.keyboard.press('Tab');
  await p3.waitForSelector('[data-testid=completion]', { timeout: 5000 }).catch(() => {});
  const fieldsOffered = await p3.locator('[data-testid=completion] li').allTextContents();
  check('Tab right after find({ offers the collection\'s fields', fieldsOffered.includes('name') && fieldsOffered.includes('city'), fieldsOffered.join(','));
  await p3.keyboard.press('Escape');
  const fnd = await run(p3, 'db.people.fnd()');
  check('an unknown method is named as mongosh names it', fnd.includes('TypeError: db.people.fnd is not a function'), fnd);
  const hint = await p3.locator('.entry').last().locator('[data-testid=shell-note]').allTextContents();
  check('an unknown method gets a "did you mean" hint', hint.some((h) => h.includes('Did you mean find?')), hint.join('|'));
  const missing = await run(p3, 'db.peple.find()');
  const missingNote = await p3.locator('.entry').last().locator('[data-testid=shell-note]').allTextContents();
  check('a read from a missing collection says so and stays empty',
    missingNote.some((n) => n.includes('test.peple does not exist')) && !missing.includes('{'), `${missing} | ${missingNote}`);
  const help = await run(p3, 'help');
  check('help prints the shell help', help.includes('Shell Help:') && help.includes('db.help()'), help.slice(0, 200));
  const dbHelp = await run(p3, 'db.help()');
  check('db.help() lists database methods', dbHelp.includes('Database Class:') && dbHelp.includes('getCollectionNames'), dbHelp.slice(0, 200));
  const collHelp = await run(p3, 'db.people.help()');
  check('db.coll.help() lists collection methods', collHelp.includes('Collection Class:') && collHelp.includes('insertOne'), collHelp.slice(0, 200));
  const ejson = await run(p3, 'EJSON.stringify(EJSON.parse(\'{"a": {"$numberLong": "5"}, "d": {"$date": "2025-01-01T00:00:00Z"}}\'), {relaxed: false})');
  check('EJSON parses and stringifies Extended JSON', ejson.includes('{"a":{"$numberLong":"5"},"d":{"$date":{"$numberLong":"1735689600000"}}}'), ejson);
  await p3.click('[data-testid=lang-zh]');
  const zhHelp = await run(p3, 'help');
  check('help follows the page language (Chinese)', zhHelp.includes('Shell 帮助'), zhHelp.slice(0, 120));
  await p3.click('[data-testid=lang-en]');

  // The explain view.
  await run(p3, 'db.items.insertMany([{sku: 1, qty: 5}, {sku: 2, qty: 50}, {sku: 3, qty: 500}, {sku: 4, qty: 7}])');
  await run(p3, 'db.items.createIndex({qty: 1})');
  await run(p3, 'db.items.createIndex({sku: 1, qty: 1})');
  await run(p3, 'db.items.find({qty: {$gt: 6}, sku: {$gte: 1}}).sort({sku: -1}).explain("executionStats")');
  const explain = p3.locator('.entry').last();
  const explainText = (await explain.textContent()) ?? '';
  check('the explain view shows index bounds', (await explain.locator('.stage-bounds').count()) > 0, explainText.slice(0, 300));
  check('the explain view shows works and the time', explainText.includes('works') && explainText.includes('executionTimeMillis'), explainText.slice(0, 300));
  check('the explain view reads the plan in plain words', ((await explain.locator('[data-testid=plan-reading]').textContent()) ?? '').startsWith('MongoDB'));
  check('rejected plans are compared side by side', (await explain.locator('[data-testid=plan-compare] thead th').count()) >= 2);
  await p3.screenshot({ path: join(outDir, 'explain-view.png') });
  await run(p3, 'db.items.find({qty: {$gt: 6}}).sort({qty: -1, sku: 1}).hint({$natural: 1}).explain("executionStats")');
  const scan = p3.locator('.entry').last();
  const warnings = await scan.locator('.stage-box.warn').count();
  const warnColour = warnings ? await scan.locator('.stage-warning').first().evaluate((e) => getComputedStyle(e).color) : '';
  check('a collection scan and an in-memory sort are called out in a warning colour', warnings >= 2 && warnColour !== '', `${warnings} ${warnColour}`);
  await scan.locator('[data-view=text]').click();
  const shortText = (await scan.locator('[data-testid=explain-text]').textContent()) ?? '';
  check('the explain text view hides serverParameters', !shortText.includes('serverParameters') && shortText.includes('queryPlanner'), shortText.slice(0, 200));
  await scan.locator('[data-testid=show-hidden-fields]').check();
  const fullText = (await scan.locator('[data-testid=explain-text]').textContent()) ?? '';
  check('the toggle shows serverParameters again', fullText.includes('serverParameters'));

  // Book B chapter 8's throughput pipeline (B8-C9), stage by stage, on the book's resources.
  await run(p3, 'var events = []; [["/", 52], ["/legal/faq", 13], ["/legal/terms", 35]].forEach(function (r) { for (var i = 0; i < r[1]; i++) events.push({resource: r[0]}); }); db.events.insertMany(events).insertedIds.length');
  await run(p3, 'db.events.aggregate([{$match: {resource: {$ne: "/legal/faq"}}}, {$group: {_id: "$resource", hits: {$sum: 1}}}, {$project: {_id: 0, resource: "$_id", throughput: {$divide: ["$hits", 1440]}}}, {$sort: {throughput: -1}}])');
  const agg = p3.locator('.entry').last();
  await agg.locator('[data-view=stages]').click();
  const counts = await agg.locator('[data-testid=stage-step]').evaluateAll((els) => els.map((e) => e.dataset.count));
  check('the stage view of a chapter 8 pipeline shows the count after each stage', counts.join(',') === '87,2,2,2', counts.join(','));
  await agg.locator('[data-testid=stage-step] >> nth=1').click();
  const sampleText = (await agg.locator('[data-testid=stage-sample]').textContent()) ?? '';
  check('the selected stage shows its documents', sampleText.includes('hits: 52') && sampleText.includes('$group'), sampleText);
  await p3.screenshot({ path: join(outDir, 'stage-view.png') });
  await axe(p3, 'the explain and stage views');

  // A wrong answer to a result exercise (book B chapter 3) shows its own documents.
  await p3.locator('[data-lesson=b3-queries]').scrollIntoViewIfNeeded();
  await p3.click('[data-lesson=b3-queries]');
  await p3.waitForSelector('[data-testid=data-note]', { timeout: 30000 });
  const buttons = await p3.locator('[data-testid=page-strip] button').allTextContents();
  for (const label of buttons.filter((b) => /^E\d+$/.test(b.trim()))) {
    await p3.click(`[data-testid=page-strip] button >> text="${label.trim()}"`);
    await p3.waitForSelector('[data-testid=exercise-title]');
    if (((await p3.locator('[data-testid=exercise-title]').textContent()) ?? '').includes('25')) break;
  }
  await p3.fill('[data-testid=answer]', 'db.products.find({price: {$lte: 30}}, {_id: 0, name: 1, price: 1})');
  await p3.click('[data-testid=check]');
  await p3.waitForSelector('[data-testid=check-result]', { timeout: 30000 });
  const verdict = (await p3.locator('[data-testid=check-result]').textContent()) ?? '';
  const extra = await p3.locator('[data-testid=extra-docs] li').allTextContents();
  check('a wrong answer shows the documents it should not have returned', extra.length > 0 && extra[0].includes('price'), extra.join(' | '));
  check('"Not yet" is said once', (verdict.match(/Not yet/g) ?? []).length === 1, verdict);
  const verdictBox = await p3.locator('[data-testid=check-result]').boundingBox();
  const footBox = await p3.locator('.lesson-foot').boundingBox();
  check('the verdict is visible above the footer', verdictBox && footBox && verdictBox.y + verdictBox.height <= footBox.y + 1,
    `${JSON.stringify(verdictBox)} ${JSON.stringify(footBox)}`);
  await p3.screenshot({ path: join(outDir, 'exercise-feedback.png') });
  const strip = await p3.locator('[data-testid=page-strip] button').allTextContents();
  await p3.click('[data-testid=page-strip] button >> text="1"');
  await p3.waitForSelector('[data-testid=run-step]');
  const stepCommand = (await p3.locator('[data-testid=step-command]').textContent()) ?? '';
  await p3.click('[data-testid=run-step]');
  await p3.waitForSelector('[data-testid=step-verdict]', { timeout: 30000 });
  const editorAfter = await p3.inputValue('[data-testid=editor]');
  check('"Run this step" leaves the step in the editor', editorAfter.trim() === stepCommand.trim() && strip.length > 0, editorAfter);
  const entriesBefore = await entries(p3);
  await p3.reload();
  await ready(p3);
  await p3.waitForFunction(() => document.querySelectorAll('.past-entry').length > 0, null, { timeout: 30000 });
  const entriesAfter = await p3.locator('.past-entry').count();
  check('the console transcript survives a reload', entriesAfter > 0 && entriesAfter <= entriesBefore, `${entriesBefore} → ${entriesAfter}`);
  await ctx3.close();
  check('no uncaught page errors', pageErrors.length === 0, pageErrors.join('; '));
} catch (e) {
  failed++;
  console.log(`not ok - exception: ${e}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
