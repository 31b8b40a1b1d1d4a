// End-to-end: the served playground in Debian's Chromium, driven by Playwright.
// Inserts a product, finds it, reloads the page (IndexedDB) and finds it again; bad input shows
// errors (with MongoDB's code) and the page keeps working; a hanging command is stopped and a
// command that exhausts memory is survived by replacing the shell worker without losing data.
// Result sets show as a tree and a table; an indexed query's explain as a plan tree; the editor
// completes, runs on Enter and walks its history (kept over a reload); the theme switch is kept.
// Saves screenshots (playground, explain, dark theme…) and the time to first result.
// Usage: node playground.spec.mjs <url> <output-dir>
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, check, finish, run } from './harness.mjs';

const { context, url, outDir, pageErrors } = await launch({ name: 'e2e', viewport: { width: 1100, height: 700 } });
const last = (page) => page.locator('.entry').last();
async function editorValue(page) {
  return page.$eval('[data-testid=editor]', (t) => t.value);
}
async function ready(page) {
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=status]');
    return s && s.dataset.ready === 'true';
  }, null, { timeout: 30000 });
}

try {
  let page = context.pages()[0] ?? await context.newPage();
  // The time to first result is the page's, not the browser's: a freshly launched Chromium
  // spends its first second starting its own processes, which a learner's running browser has
  // done long before. Let it settle on a blank page before the timed navigation.
  await page.goto('about:blank');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const t0 = Date.now();
  await page.goto(url);
  await ready(page);
  const status = await page.textContent('[data-testid=status]');
  check('the page loads and the engine starts', status.includes('IndexedDB'), status);

  const inserted = await run(page, 'db.products.insertOne({name: "Product 1", price: 10})');
  const firstResultMs = Date.now() - t0;
  // Where the time went, from the page's performance timeline (ms since navigation start).
  const breakdown = await page.evaluate(() => {
    const at = (name) => Math.round(performance.getEntriesByName(name)[0]?.startTime ?? -1);
    const loaded = (file) => {
      const r = performance.getEntriesByType('resource').find((e) => e.name.endsWith(file));
      return r ? Math.round(r.responseEnd) : -1;
    };
    return {
      pageWasmLoadedMs: loaded('/web_bg.wasm'),
      uiStartedMs: at('sprout:ui-started'),
      workerModuleRunningMs: at('sprout:worker-module-running'),
      shellBuiltMs: at('sprout:shell-built'),
      dataLoadedMs: at('sprout:data-loaded'),
      shellReadyMs: at('sprout:shell-ready'),
      firstResultShownMs: at('sprout:first-result'),
    };
  });
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
  const badge = (await last(page).locator('[data-testid=error-code]').textContent()) ?? '';
  check('an engine error shows its code and codeName', badge === 'code 2 · BadValue', badge);
  const errorColour = await last(page).locator('.result.error').evaluate((e) => getComputedStyle(e).color);
  check('an error is red', /^rgb\((1[5-9]\d|2\d\d), \d{1,2}, \d{1,2}\)$/.test(errorColour), errorColour);

  // Result sets: Text, Tree and Table.
  await run(page, 'db.products.insertMany([{name: "Product 2", price: 20, tags: ["a", "b"]}, ' +
    '{name: "Product 3", price: 30, dims: {w: 2, h: 3}}, {name: "Product 4", price: 40}])');
  const all = await run(page, 'db.products.find().sort({price: 1})');
  check('find shows mongosh text by default', all.includes("name: 'Product 4'"), all);
  await last(page).locator('[data-view=table]').click();
  const headers = await last(page).locator('[data-testid=table] th').allTextContents();
  check('the table has the union of the top-level fields as columns',
    JSON.stringify(headers) === JSON.stringify(['_id', 'name', 'price', 'tags', 'dims']), JSON.stringify(headers));
  const rows = await last(page).locator('[data-testid=table] tbody tr').count();
  const nested = await last(page).locator('[data-testid=table] tbody tr').nth(2).locator('td').nth(4).textContent();
  check('the table has a row per document, nested values compact', rows === 4 && nested === '{ w: 2, h: 3 }', `${rows} rows, ${nested}`);
  await page.screenshot({ path: join(outDir, 'playground-table.png') });
  await last(page).locator('[data-view=tree]').click();
  const treeDocs = await last(page).locator('[data-testid=tree] > details').count();
  const firstLeaf = await last(page).locator('[data-testid=tree] > details').first().locator('.tree-leaf').first().textContent();
  check('the tree has a node per document, ObjectId as a leaf', treeDocs === 4 && /^_id: ObjectId\('[0-9a-f]{24}'\)$/.test(firstLeaf), `${treeDocs} ${firstLeaf}`);
  const dims = last(page).locator('[data-testid=tree] > details').nth(2).locator('details').first();
  const openBefore = await dims.evaluate((d) => d.open);
  await dims.locator('summary').first().click();
  const openAfter = await dims.evaluate((d) => d.open);
  check('a tree node collapses', openBefore === true && openAfter === false, `${openBefore} → ${openAfter}`);
  await run(page, 'db.products.aggregate([{$match: {price: 10}}, {$project: {_id: 0, i: "$price", l: {$toLong: "$price"}, d: {$divide: ["$price", 4]}}}])');
  await last(page).locator('[data-view=tree]').click();
  const numberLeaves = await last(page).locator('[data-testid=tree] .tree-leaf').allTextContents();
  await last(page).locator('[data-view=table]').click();
  const numberCells = await last(page).locator('[data-testid=table] tbody td').allTextContents();
  check('the tree and the table show number types as the text does (Long)',
    JSON.stringify(numberLeaves) === JSON.stringify(['i: 10', "l: Long('10')", 'd: 2.5'])
      && JSON.stringify(numberCells) === JSON.stringify(['10', "Long('10')", '2.5']),
    `${JSON.stringify(numberLeaves)} ${JSON.stringify(numberCells)}`);

  // Explain: an indexed query renders as a plan tree with a summary; the sidebar lists indexes.
  await run(page, 'db.products.createIndex({price: 1})');
  await run(page, 'db.products.createIndex({price: 1, name: 1})');
  const sidebarIndexes = await page.textContent('[data-testid=sidebar]');
  check('the sidebar lists the indexes with their keys', sidebarIndexes.includes('price_1_name_1') && sidebarIndexes.includes('{ price: 1 }'), sidebarIndexes);
  await run(page, 'db.products.find({price: {$gte: 20}}).explain("executionStats")');
  const summary = (await last(page).locator('[data-testid=plan-summary]').textContent()) ?? '';
  check('the explain summary counts keys and documents',
    /^examined 3 index keys and 3 documents to return 3: index price_1(_name_1)?$/.test(summary), summary);
  const stages = await last(page).locator('[data-testid=winning-plan] .stage-name').allTextContents();
  check('the winning plan is a tree of stage boxes', JSON.stringify(stages) === '["FETCH","IXSCAN"]', JSON.stringify(stages));
  const ixscan = (await last(page).locator('[data-testid=winning-plan] [data-stage=IXSCAN]').textContent()) ?? '';
  check('the index scan shows its index, key pattern and counters', /price_1.*\{ price: 1.*\}.*3 keys examined.*3 returned/.test(ixscan), ixscan);
  const rejected = (await last(page).locator('[data-testid=rejected-plans] > summary').textContent()) ?? '';
  check('the rejected plan is listed', rejected === '1 rejected plan', rejected);
  await last(page).locator('[data-testid=rejected-plans] > summary').click();
  await last(page).locator('[data-testid=explain]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(outDir, 'explain.png') });
  const aggregateSummary = await (async () => {
    await run(page, 'db.products.explain("executionStats").aggregate([{$match: {price: 10}}, {$group: {_id: "$name"}}])');
    return (await last(page).locator('[data-testid=plan-summary]').textContent()) ?? '';
  })();
  check('an aggregation explain is a plan too', /^examined \d+ index keys? and 1 document to return 1: index price_1/.test(aggregateSummary), aggregateSummary);
  const later = (await last(page).locator('[data-testid=later-stages]').textContent()) ?? '';
  check("the aggregation's later stages are named", later === 'then in the pipeline: $group', later);

  // Editor: Enter runs a complete one-line statement; completion; history.
  await page.fill('[data-testid=editor]', '');
  await page.click('[data-testid=editor]');
  await page.keyboard.type('db.prod');
  await page.waitForSelector('[data-testid=completion]', { timeout: 5000 });
  const offered = await page.locator('[data-testid=completion] li').allTextContents();
  await page.keyboard.press('Tab');
  const completed = await editorValue(page);
  check('completion offers the collection and Tab accepts it', offered.includes('products') && completed === 'db.products', `${offered} → ${completed}`);
  await page.keyboard.type('.countDocuments()');
  const bracketPair = await page.locator('.highlight .bracket-match').count();
  check('the brackets at the cursor are highlighted', bracketPair === 2, String(bracketPair));
  const coloured = await page.locator('.highlight .tok-shell').count();
  check('the input is syntax-coloured', coloured >= 1, String(coloured));
  const entriesBefore = await page.locator('.entry').count();
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, entriesBefore, { timeout: 30000 });
  const counted = (await last(page).locator('.result').textContent()) ?? '';
  check('Enter runs a complete statement', counted.trim() === '4', counted);
  await page.keyboard.type('db.products.find({');
  await page.keyboard.press('Enter');
  check('Enter in an unfinished statement starts a new line', (await editorValue(page)) === 'db.products.find({\n', JSON.stringify(await editorValue(page)));
  await page.fill('[data-testid=editor]', '');
  await page.keyboard.press('ArrowUp');
  const recalled = await editorValue(page);
  await page.keyboard.press('ArrowUp');
  const older = await editorValue(page);
  check('↑ recalls the previous commands', recalled === 'db.products.countDocuments()' && older.includes('aggregate'), `${recalled} / ${older}`);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  check('↓ returns to the draft', (await editorValue(page)) === '', await editorValue(page));

  const loop = await run(page, 'while (true) {}');
  check('a runaway loop is stopped', /RangeError/.test(loop), loop);

  // A command that runs for minutes within the shell's limits keeps the shell worker busy, not
  // the page: the page still answers, Stop replaces the worker, and the stored data is still
  // there. (One catastrophic regular expression no longer serves: the shell stops each search
  // after 10M backtracking steps, so the command catches that error and searches again.)
  const before = await page.locator('.entry').count();
  await page.fill('[data-testid=editor]',
    "for (let i = 0; i < 1e6; i++) { try { /(a+)+$/.test('a'.repeat(40) + 'b') } catch (e) {} }");
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
  check('after Stop the data is still there', afterStop.trim() === '4', afterStop);

  // Issue #4: a command that exhausts memory kills the worker's wasm; the page notices, says so,
  // starts a fresh worker from IndexedDB, and the next command works on the same data.
  const oomStarted = Date.now();
  // (The wasm memory is capped at 1 GiB, web/build.rs; a debug build takes ~45 s to fill it.)
  const oom = await run(page, 'var a = []; while (true) a.push("x".repeat(1e6) + a.length)', 180000);
  check('running out of memory is reported', /The shell stopped/.test(oom) &&
    (await last(page).locator('.result.error').count()) === 1, oom);
  console.log(`out of memory noticed after ${Date.now() - oomStarted} ms`);
  const afterOom = await run(page, 'db.products.countDocuments()');
  check('after running out of memory the next command works on the stored data', afterOom.trim() === '4', afterOom);

  // The editor takes a command while the engine is still starting; it runs once the engine is.
  await page.reload({ waitUntil: 'commit' });
  await page.waitForSelector('[data-testid=editor]');
  const enteredBeforeReady = await page.$eval('[data-testid=status]', (s) => s.dataset.ready !== 'true');
  const early = await run(page, 'db.products.countDocuments()');
  check('a command entered while the engine starts runs once it is ready', early.trim() === '4',
    `${early} (entered before ready: ${enteredBeforeReady})`);
  console.log(`(that command was entered ${enteredBeforeReady ? 'before' : 'after'} the engine was ready)`);

  await page.reload();
  await ready(page);
  await page.click('[data-testid=editor]');
  await page.keyboard.press('ArrowUp');
  check('the history survives a reload', (await editorValue(page)) === 'db.products.countDocuments()', await editorValue(page));
  await page.click('[data-testid=theme-toggle]');
  const theme = await page.evaluate(() => document.documentElement.dataset.theme);
  const again = await run(page, 'db.products.find({price: 10})');
  check('after a reload the document is still there (IndexedDB)', again.includes("name: 'Product 1'"), again);
  const collections = await run(page, 'show collections');
  check('show collections lists products', collections.trim() === 'products', collections);
  await page.screenshot({ path: join(outDir, 'playground-after-reload.png') });
  await page.reload();
  await ready(page);
  const themeAfterReload = await page.evaluate(() => document.documentElement.dataset.theme);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  check('the theme switch is kept over a reload', theme === 'dark' && themeAfterReload === 'dark' && background === 'rgb(20, 25, 22)',
    `${theme} ${themeAfterReload} ${background}`);
  await run(page, 'db.products.find({price: {$gte: 20}}).explain("executionStats")');
  await page.screenshot({ path: join(outDir, 'explain-dark.png') });
  check('no uncaught page errors', pageErrors.length === 0, pageErrors.join('; '));
  writeFileSync(join(outDir, 'timings.json'), JSON.stringify({ firstResultMs, ...breakdown }, null, 2));
  console.log(`first result after ${firstResultMs} ms (load + engine start + insertOne, as the test `
    + `waited for it); after navigation: page wasm loaded ${breakdown.pageWasmLoadedMs} ms, `
    + `UI started ${breakdown.uiStartedMs} ms, worker module running ${breakdown.workerModuleRunningMs} ms, `
    + `shell built ${breakdown.shellBuiltMs} ms, data loaded ${breakdown.dataLoadedMs} ms, `
    + `shell ready ${breakdown.shellReadyMs} ms, first result shown ${breakdown.firstResultShownMs} ms`);
} catch (e) {
  check('exception', false, String(e));
} finally {
  await finish();
}
