// End-to-end: collations in the playground (issue #22, size). The wasm build links no locale's
// tailorings; the shell worker reads `collation/<locale>.postcard` the first time a locale is used
// (engine/src/collation/data.rs, web/src/worker/collation_data.rs). Checked here: a query with a
// tailored locale (Swedish, German phonebook, Chinese) sorts as MongoDB does, its file is read
// once and only then, a locale without a tailoring (en_US) reads none, a collection's default
// collation works again after a reload, and a file that cannot be read gives a clear error that
// names it while the next command, and the locale once served, work. Also the other file of the
// site read at start, the built-in lessons (`lessons/built-in.txt`): while it cannot be read the
// lesson navigator says why and offers to try again, and trying again once it can lists them.
// Usage: node collation.spec.mjs <url> <output-dir>
import { launch, check, finish, run } from './harness.mjs';

// Playwright's routes must see the worker's requests: no service worker in between.
const { context, url, pageErrors } = await launch({ name: 'collation', serviceWorkers: 'block' });
async function ready(page) {
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=status]');
    return s && s.dataset.ready === 'true';
  }, null, { timeout: 30000 });
}
const words = (text) => [...text.matchAll(/w: '([^']*)'/g)].map((m) => m[1]).join(' ');

try {
  const read = [];
  context.on('request', (r) => { if (r.url().includes('/collation/')) read.push(r.url().split('/collation/')[1]); });
  // The Danish file is refused until the test lets it through.
  let refuseDanish = true;
  await context.route('**/collation/da.postcard', (route) => (refuseDanish
    ? route.fulfill({ status: 404, body: 'not here' }) : route.continue()));

  const page = context.pages()[0] ?? await context.newPage();
  await page.goto(`${url}?db=collation-e2e`);
  await ready(page);
  await run(page, 'db.w.drop(); db.w.insertMany([{w: "z"}, {w: "ö"}, {w: "a"}, {w: "ä"}, {w: "ae"}])');
  check('no collation file is read before a collation needs one', read.length === 0, read.join());

  const en = await run(page, 'db.w.find({}, {_id: 0}).sort({w: 1}).collation({locale: "en_US"})');
  check('en_US sorts accents with their letters', words(en) === 'a ä ae ö z', words(en));
  check('en_US has no tailoring to read', read.length === 0, read.join());

  const sv = await run(page, 'db.w.find({}, {_id: 0}).sort({w: 1}).collation({locale: "sv"})');
  check('sv sorts ä and ö after z (its tailoring, read on first use)', words(sv) === 'a ae z ä ö', words(sv));
  const de = await run(page, 'db.w.find({}, {_id: 0}).sort({w: 1}).collation({locale: "de@collation=phonebook"})');
  check('German phonebook order sorts ä as ae', words(de) === 'a ä ae ö z' || words(de) === 'a ae ä ö z', words(de));
  const svAgain = await run(page, 'db.w.countDocuments({w: "A"}, {collation: {locale: "sv", strength: 1}})');
  check('a second sv command counts under the collation', svAgain.trim() === '1', svAgain);
  check('each tailoring file was read once', read.join() === 'sv.postcard,de.postcard', read.join());

  const zh = await run(page, 'db.z.drop(); db.z.insertMany([{w: "中"}, {w: "啊"}, {w: "文"}]); ' +
    'db.z.find({}, {_id: 0}).sort({w: 1}).collation({locale: "zh"})');
  check('zh sorts by pinyin (啊 a, 文 wen, 中 zhong)', words(zh) === '啊 文 中', words(zh));

  // A collection's default collation is built again when its data is reloaded.
  await run(page, 'db.createCollection("sv", {collation: {locale: "sv"}}); db.sv.insertMany([{w: "ö"}, {w: "z"}])');
  await page.reload();
  await ready(page);
  const reloaded = await run(page, 'db.sv.find({}, {_id: 0}).sort({w: 1})');
  check('a collection\'s default collation works after a reload', words(reloaded) === 'z ö', words(reloaded));

  const failed = await run(page, 'db.w.find({}, {_id: 0}).sort({w: 1}).collation({locale: "da"})');
  check('an unreadable collation file is a clear error naming it',
    /Failed to create collator: the collation data of locale 'da' \(da\.postcard\) could not be loaded: fetching collation\/da\.postcard answered HTTP 404/.test(failed), failed);
  const after = await run(page, 'db.w.countDocuments()');
  check('the next command works', after.trim() === '5', after);
  refuseDanish = false;
  const da = await run(page, 'db.w.find({}, {_id: 0}).sort({w: 1}).collation({locale: "da"})');
  check('the locale works once its file can be read', words(da) === 'a ae z ä ö', words(da));
  check('the page logged no errors', pageErrors.length === 0, pageErrors.join('\n'));

  // The built-in lessons: refused until the test lets them through.
  let refuseLessons = true;
  await context.route('**/lessons/built-in.txt', (route) => (refuseLessons
    ? route.fulfill({ status: 503, body: 'busy' }) : route.continue()));
  const lessonsPage = await context.newPage();
  await lessonsPage.goto(`${url}?db=collation-e2e-lessons`);
  await lessonsPage.waitForSelector('[data-testid=lessons-failed]', { timeout: 30000 });
  const why = ((await lessonsPage.textContent('[data-testid=lessons-failed]')) ?? '').trim();
  check('the navigator says why the lessons could not be loaded',
    /could not be loaded: fetching lessons\/built-in\.txt answered HTTP 503/.test(why), why);
  check('no lesson is listed while they cannot be read',
    (await lessonsPage.locator('[data-testid=lesson-nav] [data-lesson]').count()) === 0);
  refuseLessons = false;
  await lessonsPage.click('[data-testid=lessons-failed] button.retry');
  await lessonsPage.waitForSelector('[data-testid=lesson-nav] [data-lesson]', { timeout: 30000 });
  const listed = await lessonsPage.locator('[data-testid=lesson-nav] [data-lesson]').count();
  check('"Try again" lists the lessons once they can be read', listed > 10, `${listed} lessons`);
  check('the failure note is gone', (await lessonsPage.locator('[data-testid=lessons-failed]').count()) === 0);
  // Refusing the file logs a console error, not an uncaught page error.
  check('the lessons page logged no uncaught errors', pageErrors.length === 0, pageErrors.join('\n'));
} catch (e) {
  check('collation spec ran without exceptions', false, e && e.stack ? e.stack : String(e));
} finally {
  await finish();
}
