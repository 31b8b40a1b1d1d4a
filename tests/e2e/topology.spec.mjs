// End-to-end: the sidebar's replica set panel (issue #17) in book B's chapter 6 lesson. Runs
// step 1 (rs.initiate of three members), sees three members with one PRIMARY, stops the primary
// with `sprout.replSet.stop(host)` in the console and sees the election: that member stopped,
// another PRIMARY; a secondary read is marked as served by the secondary. Then Chinese, and the
// phone size behind the "Data" tab. Saves screenshots at 1280×800 and 390×844.
// Usage: node topology.spec.mjs <url> <output-dir>
import { join } from 'node:path';
import { launch, check, finish } from './harness.mjs';

const LESSON = 'b6-managing';
const FIRST_PRIMARY = '172.17.0.7:27017';
const { context, url, outDir, pageErrors } = await launch({ name: 'topology', viewport: { width: 1280, height: 800 } });
const text = async (page, sel) => ((await page.textContent(sel)) ?? '').trim();
// The panel's members as [host, state, served].
const members = (page) => page.$$eval('[data-testid=topology-member]',
  (ms) => ms.map((m) => [m.dataset.host, m.dataset.state, m.dataset.served === 'true']));
async function run(page, command) {
  const before = await page.locator('.entry').count();
  await page.fill('[data-testid=editor]', command);
  await page.press('[data-testid=editor]', 'Control+Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, before, { timeout: 60000 });
  return ((await page.locator('.entry').last().textContent()) ?? '').trim();
}

try {
  const page = context.pages()[0] ?? await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.dataset.ready === 'true',
    null, { timeout: 30000 });
  check('a standalone shows no replica set panel', (await page.locator('[data-testid=topology]').count()) === 0);

  await page.click(`[data-lesson=${LESSON}]`);
  await page.waitForSelector('[data-testid=lesson]');
  await page.click('[data-testid=next]');
  await page.waitForFunction(() => (document.querySelector('[data-testid=step-title]')?.textContent ?? '').startsWith('1.'));
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid=run-step]');
    return b && !b.disabled;
  }, null, { timeout: 30000 });
  const command = await text(page, '[data-testid=step-command]');
  check('step 1 is rs.initiate', command.startsWith('rs.initiate'), command);
  const entries = await page.locator('.entry').count();
  await page.click('[data-testid=run-step]');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, entries, { timeout: 60000 });
  await page.waitForSelector('[data-testid=step-verdict]', { timeout: 10000 });
  const verdict = await text(page, '[data-testid=step-verdict]');
  check('step 1 shows ✓', verdict.startsWith('✓'), verdict);

  await page.waitForSelector('[data-testid=topology]', { timeout: 10000 });
  const set = await page.getAttribute('[data-testid=topology]', 'data-set');
  check('the panel names the set', set === 'rs1', set);
  const first = await members(page);
  check('the panel shows three members', first.length === 3, JSON.stringify(first));
  check('exactly one member is PRIMARY, the first one', first.filter(([, s]) => s === 'primary').length === 1
    && first.find(([h]) => h === FIRST_PRIMARY)?.[1] === 'primary', JSON.stringify(first));
  check('the other two are SECONDARY', first.filter(([, s]) => s === 'secondary').length === 2, JSON.stringify(first));
  const panelText = await text(page, '[data-testid=topology]');
  check('the panel reads as a user sees it', panelText.includes('Replica set') && panelText.includes('PRIMARY')
    && panelText.includes('SECONDARY') && panelText.includes(FIRST_PRIMARY), panelText);
  await page.screenshot({ path: join(outDir, 'topology-desktop.png') });

  const stopped = await run(page, `sprout.replSet.stop("${FIRST_PRIMARY}")`);
  check('stopping the primary answers ok', /ok: 1/.test(stopped), stopped);
  await page.waitForFunction((host) => document.querySelector(`[data-testid=topology-member][data-host="${host}"]`)
    ?.dataset.state === 'stopped', FIRST_PRIMARY, { timeout: 10000 });
  const after = await members(page);
  check('the stopped primary shows stopped', after.find(([h]) => h === FIRST_PRIMARY)?.[1] === 'stopped', JSON.stringify(after));
  const newPrimary = after.filter(([h, s]) => s === 'primary' && h !== FIRST_PRIMARY);
  check('another member was elected PRIMARY', newPrimary.length === 1
    && after.filter(([, s]) => s === 'primary').length === 1, JSON.stringify(after));
  const status = await run(page, 'rs.status().members.map(m => m.name + " " + m.stateStr)');
  check('rs.status() agrees with the panel', status.includes(`${newPrimary[0]?.[0]} PRIMARY`), status);

  await run(page, 'db.getSiblingDB("shop").orders.insertOne({item: "pen"}, {writeConcern: {w: 1}})');
  await run(page, 'db.getSiblingDB("shop").orders.find().readPref("secondary").toArray()');
  const served = await members(page);
  const servedBy = served.filter(([, , s]) => s);
  check('the secondary that served the read is marked', servedBy.length === 1 && servedBy[0][1] === 'secondary',
    JSON.stringify(served));
  await page.screenshot({ path: join(outDir, 'topology-election-desktop.png') });

  await page.click('[data-testid=lang-zh]');
  const zh = await text(page, '[data-testid=topology]');
  check('the panel speaks Chinese', zh.includes('副本集') && zh.includes('已停止') && zh.includes('上一条命令'), zh);
  await page.screenshot({ path: join(outDir, 'topology-zh.png') });
  await page.click('[data-testid=lang-en]');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('[data-testid=tab-data]');
  await page.waitForSelector('[data-testid=topology]', { state: 'visible' });
  const box = await page.locator('[data-testid=topology]').boundingBox();
  check('on a phone the panel fits the screen\'s width', box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
  const overflow = await page.$$eval('[data-testid=topology-member]', (ms) => ms.filter((m) => m.scrollWidth > m.clientWidth + 1).length);
  check('on a phone no member row overflows', overflow === 0, `${overflow} rows`);
  await page.screenshot({ path: join(outDir, 'topology-phone.png') });
  check('no uncaught page errors', pageErrors.length === 0, pageErrors.join('; '));
} catch (e) {
  check('exception', false, String(e));
} finally {
  await finish();
}
