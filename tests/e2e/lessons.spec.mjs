// End-to-end: a lesson in the served playground (Debian's Chromium, driven by Playwright).
// Opens book B's chapter 5 lesson, runs every step with "Run this step" and checks each shows ✓
// (the output or the plan matches the lesson), fails one exercise with a wrong answer and solves
// the exercises, switches to Chinese, reloads and finds the lesson, the page, the language and the
// progress kept. Saves screenshots of the lesson view (EN and ZH) and the time from navigation to
// the first step's result.
// Usage: node lessons.spec.mjs <url> <output-dir>
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, check, finish } from './harness.mjs';

const LESSON = 'b5-optimizing';
const { context, url, outDir, pageErrors } = await launch({ name: 'lessons', viewport: { width: 1280, height: 800 } });
async function ready(page) {
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=status]');
    return s && s.dataset.ready === 'true';
  }, null, { timeout: 30000 });
}
const text = async (page, sel) => ((await page.textContent(sel)) ?? '').trim();
// Waits until the lesson's data is loaded (the note appears, the buttons are enabled).
async function dataLoaded(page) {
  await page.waitForSelector('[data-testid=data-note]', { timeout: 30000 });
}
// The lesson's data is loaded and no command runs: "Run this step" can be clicked.
async function stepReady(page) {
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid=run-step]');
    return b && !b.disabled;
  }, null, { timeout: 30000 });
}
// "Run this step" on the current page; returns the verdict text once it appears.
async function runStep(page) {
  const entries = await page.locator('.entry').count();
  await page.click('[data-testid=run-step]');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, entries, { timeout: 60000 });
  await page.waitForSelector('[data-testid=step-verdict]', { timeout: 10000 });
  return text(page, '[data-testid=step-verdict]');
}
// Types an answer and checks it; returns the verdict once it appears (each answer checked here
// gives a verdict different from the one before it).
async function checkAnswer(page, answer) {
  await page.fill('[data-testid=answer]', answer);
  const previous = (await page.locator('[data-testid=check-result]').count())
    ? await text(page, '[data-testid=check-result]') : null;
  await page.click('[data-testid=check]');
  await page.waitForFunction((prev) => {
    const el = document.querySelector('[data-testid=check-result]');
    return el && el.textContent.trim() !== prev;
  }, previous, { timeout: 60000 });
  return text(page, '[data-testid=check-result]');
}

try {
  let page = context.pages()[0] ?? await context.newPage();
  // As in playground.spec.mjs: time the page, not the freshly launched browser's own start.
  await page.goto('about:blank');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const t0 = Date.now();
  await page.goto(url);
  await ready(page);
  // The built-in lessons arrive as a site file fetched at start (`lessons/built-in.txt`): the
  // navigator lists them once it is read, which under load can be after the shell is ready.
  await page.waitForSelector(`[data-testid=lesson-nav] [data-lesson=${LESSON}]`);
  const nav = await text(page, '[data-testid=lesson-nav]');
  check('the navigator lists both books', nav.includes('50 Tips') && nav.includes('MongoDB Data Modeling'), nav.slice(0, 200));
  check('the navigator lists the chapter 5 lesson', nav.includes('Ch. 5'), nav.slice(0, 400));

  await page.click(`[data-lesson=${LESSON}]`);
  await page.waitForSelector('[data-testid=lesson]');
  await dataLoaded(page);
  const note = await text(page, '[data-testid=data-note]');
  check('opening the lesson loads its dataset', note.includes('ecommerce.products (10)'), note);
  const sidebar = await text(page, '[data-testid=sidebar]');
  check('the sidebar shows the lesson data', /products/.test(sidebar) && /customers/.test(sidebar), sidebar);

  const strip = await page.locator('[data-testid=page-strip] button').allTextContents();
  const steps = strip.filter((s) => /^\d+$/.test(s.trim())).length;
  const exercises = strip.filter((s) => /^E\d+$/.test(s.trim())).length;
  check('the lesson has steps and exercises', steps >= 5 && exercises >= 1, strip.join(' '));

  let firstStepMs = null;
  let explainShot = false;
  for (let i = 1; i <= steps; i++) {
    await page.click('[data-testid=next]');
    await page.waitForFunction((n) => (document.querySelector('[data-testid=step-title]')?.textContent ?? '').startsWith(`${n}.`), i);
    const command = await text(page, '[data-testid=step-command]');
    const verdict = await runStep(page);
    if (firstStepMs === null) firstStepMs = Date.now() - t0;
    const editorInput = await page.locator('.entry .input').last().textContent();
    const facts = await page.locator('[data-testid=plan-facts] tr.bad').count();
    check(`step ${i} shows ✓`, verdict.startsWith('✓') && facts === 0, `${verdict} (${command})`);
    check(`step ${i} ran its command in the console`, (editorInput ?? '').includes(command.split('\n')[0]), editorInput);
    if (!explainShot && (await page.locator('[data-testid=plan-facts]').count()) > 0 && i >= 4) {
      await page.screenshot({ path: join(outDir, 'lesson-en.png') });
      explainShot = true;
    }
  }
  check('an explain step showed its plan facts', explainShot);

  // Exercise 1: a wrong answer fails with the engine's reason, hints come one at a time, the
  // right answer passes.
  await page.click('[data-testid=next]');
  await page.waitForSelector('[data-testid=exercise-title]');
  const wrong = await checkAnswer(page, 'db.customers.createIndex({email: 1})');
  check('a wrong answer fails with a reason', wrong.startsWith('✗') && wrong.includes('scans the collection'), wrong);
  await page.click('[data-testid=show-hint]');
  check('one hint is shown', (await page.locator('[data-testid=hint]').count()) === 1);
  const right = await checkAnswer(page, 'db.customers.createIndex({username: 1})');
  check('the right answer passes', right.startsWith('✓') && right.includes('uses an index'), right);
  check('the exercise is marked solved', (await page.locator('[data-testid=solved]').count()) === 1);
  // The other exercises: one through "Show solution", one typed.
  for (let e = 2; e <= exercises; e++) {
    await page.click('[data-testid=next]');
    await page.waitForFunction((n) => document.querySelector('[data-testid=position]')?.textContent.includes(`${n} /`), e);
    await page.click('[data-testid=show-solution]');
    const solution = await page.inputValue('[data-testid=answer]');
    const verdict = await checkAnswer(page, solution);
    check(`exercise ${e}: the solution passes`, verdict.startsWith('✓'), verdict);
  }
  await page.screenshot({ path: join(outDir, 'lesson-en-exercise.png') });

  // 中文: UI strings and the lesson's prose.
  await page.click('[data-testid=lang-zh]');
  const zhTitle = await text(page, '[data-testid=lesson-title]');
  check('the lesson title switches to Chinese', zhTitle.includes('优化查询'), zhTitle);
  const checkButton = await text(page, '[data-testid=check]');
  check('UI strings switch to Chinese', checkButton === '检查', checkButton);
  const zhStatus = await text(page, '[data-testid=status]');
  check('the status line switches to Chinese', zhStatus.startsWith('就绪'), zhStatus);
  const sidebarTitle = await text(page, '[data-testid=sidebar-title]');
  check('the console side switches to Chinese too', sidebarTitle === '数据库', sidebarTitle);
  await page.click('[data-testid=page-strip] button >> nth=4');
  const zhStep = await text(page, '.lesson-body');
  check('step prose switches to Chinese', zhStep.includes('索引'), zhStep.slice(0, 200));
  await runStep(page);
  const zhSummary = await page.locator('[data-testid=plan-summary]').last().textContent();
  check('the explain view speaks Chinese too', (zhSummary ?? '').startsWith('检查了'), zhSummary);
  await page.screenshot({ path: join(outDir, 'lesson-zh.png') });

  // Reload: the lesson, its page, the language and the progress are kept.
  await page.reload();
  await ready(page);
  await page.waitForSelector('[data-testid=lesson]', { timeout: 30000 });
  await stepReady(page);
  const titleAfter = await text(page, '[data-testid=lesson-title]');
  check('after a reload the lesson is open again, in Chinese', titleAfter.includes('优化查询'), titleAfter);
  const position = await text(page, '[data-testid=position]');
  check('after a reload the page is kept', position.includes('4 /'), position);
  const done = await page.locator('[data-testid=page-strip] button.done').count();
  check('after a reload the steps and exercises are still marked done', done === steps + exercises, `${done} of ${steps + exercises}`);
  // The steps before the page were replayed: the price index exists.
  const verdict = await runStep(page);
  check('after a reload the data is as the earlier steps left it', verdict.startsWith('✓'), verdict);
  // Reset data on an exercise: the dataset again, without the steps' indexes.
  await page.click('[data-testid=page-strip] button >> text=E1');
  const indexesBefore = await text(page, '[data-testid=sidebar]');
  check('before Reset the sidebar lists the index the steps made', indexesBefore.includes('price_1'), indexesBefore);
  await page.click('[data-testid=reset]');
  await page.waitForSelector('[data-testid=data-note]', { timeout: 30000 });
  const resetNote = await text(page, '[data-testid=data-note]');
  check('Reset data reloads the dataset', resetNote.includes('ecommerce.products (10)'), resetNote);
  const indexes = await page.evaluate(() => document.querySelector('[data-testid=sidebar]')?.textContent ?? '');
  check('after Reset the steps\' indexes are gone', !indexes.includes('price_1'), indexes);
  await page.click('[data-testid=lang-en]');
  await page.click('[data-testid=all-lessons]');
  await page.waitForSelector('[data-testid=lesson-nav]');
  await page.waitForFunction(() => /back on your own data/.test(
    [...document.querySelectorAll('[data-testid=console-note]')].pop()?.textContent ?? ''), null, { timeout: 30000 });
  const notes = await page.locator('[data-testid=console-note]').allTextContents();
  check('the console says when it moves to the lesson\'s data and back to the playground\'s',
    notes.some((n) => n.includes("lesson's data: ") && n.includes('ecommerce.products (10)')) && /back on your own data/.test(notes[notes.length - 1]),
    notes.join(' | '));
  const link = await text(page, `[data-lesson=${LESSON}]`);
  check('the navigator marks the lesson complete', link.startsWith('✓') && /(\d+)\/\1/.test(link), link);
  await page.locator(`[data-lesson=${LESSON}]`).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(outDir, 'lesson-navigator.png') });
  check('no uncaught page errors', pageErrors.length === 0, pageErrors.join('; '));
  writeFileSync(join(outDir, 'lesson-timings.json'), JSON.stringify({ firstStepMs }, null, 2));
  console.log(`first lesson step result after ${firstStepMs} ms (load + engine start + open lesson + run step 1)`);
} catch (e) {
  check('exception', false, String(e));
} finally {
  await finish();
}
