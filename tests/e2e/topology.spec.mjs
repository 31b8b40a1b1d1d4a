// End-to-end: the sidebar's replica set panel (issue #17) in book B's chapter 6 lesson. Runs
// step 1 (rs.initiate of three members), sees three members with one PRIMARY and mongosh's
// prompt `rs1 [direct: primary] test>`, stops the primary with `sprout.replSet.stop(host)` in the
// console and sees the election: that member stopped, another PRIMARY; a secondary read is
// marked as served by the secondary and named in a note under the result; the old primary started again comes back a secondary, and
// the prompt says so. Then Chinese, and the phone size behind the "Data" tab. Then the sharded
// cluster of chapter 7 (opened at step 11 by a deep link): the lesson's data note and the
// sidebar list the cluster's collections, the prompt is `[direct: mongos] ecommerce>`, the
// cluster panel shows the shards and the chunks each holds, and a targeted then a
// scatter-gather query. Saves screenshots at 1280×800 and 390×844.
// Usage: node topology.spec.mjs <url> <output-dir>
import { join } from 'node:path';
import { launch, check, finish, runEntry } from './harness.mjs';

const run = async (page, command) => (await runEntry(page, command)).trim();

const LESSON = 'b6-managing';
const FIRST_PRIMARY = '172.17.0.7:27017';
const CLUSTER_LESSON = 'b7-scaling';
const { context, url, outDir, pageErrors } = await launch({ name: 'topology', viewport: { width: 1280, height: 800 } });
const text = async (page, sel) => ((await page.textContent(sel)) ?? '').trim();
// The panel's members as [host, state, served].
const members = (page) => page.$$eval('[data-testid=topology-member]',
  (ms) => ms.map((m) => [m.dataset.host, m.dataset.state, m.dataset.served === 'true']));

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
  check('the prompt is mongosh\'s for the primary', await text(page, '[data-testid=prompt]') === 'rs1 [direct: primary] test>',
    await text(page, '[data-testid=prompt]'));
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
  const servedNote = ((await page.locator('.entry').last().locator('[data-testid=shell-note]').allTextContents()) ?? []).join(' ');
  check('a note under the result names the member that served the read',
    servedNote.startsWith(`Read from ${servedBy[0]?.[0]} (SECONDARY)`), servedNote);
  await page.screenshot({ path: join(outDir, 'topology-election-desktop.png') });
  await page.click('[data-testid=lang-zh]');
  const zh = await text(page, '[data-testid=topology]');
  check('the panel speaks Chinese', zh.includes('副本集') && zh.includes('已停止') && zh.includes('上一条命令'), zh);
  await page.screenshot({ path: join(outDir, 'topology-zh.png') });
  await page.click('[data-testid=lang-en]');
  const started = await run(page, `sprout.replSet.start("${FIRST_PRIMARY}")`);
  check('starting the old primary again answers ok', /ok: 1/.test(started), started);
  await page.waitForFunction((host) => document.querySelector(`[data-testid=topology-member][data-host="${host}"]`)
    ?.dataset.state === 'secondary', FIRST_PRIMARY, { timeout: 10000 });
  const demoted = await text(page, '[data-testid=prompt]');
  check('after the election the prompt shows the member the shell is on as a secondary',
    demoted === 'rs1 [direct: secondary] test>', demoted);


  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('[data-testid=tab-data]');
  await page.waitForSelector('[data-testid=topology]', { state: 'visible' });
  const box = await page.locator('[data-testid=topology]').boundingBox();
  check('on a phone the panel fits the screen\'s width', box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
  const overflow = await page.$$eval('[data-testid=topology-member]', (ms) => ms.filter((m) => m.scrollWidth > m.clientWidth + 1).length);
  check('on a phone no member row overflows', overflow === 0, `${overflow} rows`);
  await page.screenshot({ path: join(outDir, 'topology-phone.png') });
  await page.click('[data-testid=tab-console]');
  await page.waitForSelector('[data-testid=prompt]', { state: 'visible' });
  const promptBox = await page.locator('[data-testid=prompt]').boundingBox();
  check('on a phone the prompt shows in full inside the screen', promptBox && promptBox.x >= 0
    && promptBox.x + promptBox.width <= 390 && await text(page, '[data-testid=prompt]') === 'rs1 [direct: secondary] test>',
    JSON.stringify(promptBox));
  await page.screenshot({ path: join(outDir, 'topology-prompt-phone.png') });

  // The sharded cluster of chapter 7, at step 11: ten steps replayed (a two-shard cluster,
  // nine customers in ecommerce.customers sharded on {address.zip, registered}, one chunk split
  // off and moved to shard0001).
  await page.setViewportSize({ width: 1280, height: 800 });
  // A fresh load (not a same-page hash change), so nothing of chapter 6's lesson is on screen.
  await page.goto('about:blank');
  await page.goto(`${url}#lesson=${CLUSTER_LESSON}&step=11`);
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.dataset.ready === 'true',
    null, { timeout: 30000 });
  await page.waitForFunction(() => (document.querySelector('[data-testid=step-title]')?.textContent ?? '').startsWith('11.'),
    null, { timeout: 30000 });
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=console-note]')]
    .some((n) => n.textContent.includes('lesson\'s data')), null, { timeout: 60000 });
  const note = await page.$$eval('[data-testid=console-note]', (ns) => ns.map((n) => n.textContent).join(' | '));
  check('the console names the cluster\'s data', note.includes('lesson\'s data: ecommerce.customers (9)')
    && !note.includes('(empty)'), note);
  await page.waitForSelector('[data-testid=cluster]', { timeout: 10000 });
  check('a cluster shows no replica set panel', (await page.locator('[data-testid=topology]').count()) === 0);
  const customers = await page.$$eval('[data-db=ecommerce] .collection',
    (cs) => cs.map((c) => `${c.querySelector('.coll')?.textContent}:${c.querySelector('.count')?.textContent}`));
  check('the sidebar lists what the router sees', customers.includes('customers:9'), JSON.stringify(customers));
  const mongosPrompt = await text(page, '[data-testid=prompt]');
  check('the prompt is mongosh\'s for a router', mongosPrompt === '[direct: mongos] ecommerce>', mongosPrompt);
  const shards = await page.$$eval('[data-testid=cluster-shard]', (ss) => ss.map((s) => s.dataset.shard));
  check('the cluster panel lists two shards', JSON.stringify(shards) === '["shard0000","shard0001"]', JSON.stringify(shards));
  const chunks = await page.$$eval('[data-testid=cluster-collection][data-ns="ecommerce.customers"] .shard-chunks',
    (cs) => cs.map((c) => `${c.dataset.shard}=${c.dataset.chunks}`));
  check('one chunk of customers on each shard', JSON.stringify(chunks) === '["shard0000=1","shard0001=1"]', JSON.stringify(chunks));

  const targetedCommand = await text(page, '[data-testid=step-command]');
  const before = await page.locator('.entry').count();
  await page.waitForFunction(() => !document.querySelector('[data-testid=run-step]')?.disabled, null, { timeout: 30000 });
  await page.click('[data-testid=run-step]');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, before, { timeout: 60000 });
  await page.waitForFunction(() => document.querySelector('[data-testid=cluster-last-query]')?.dataset.shards === 'shard0000',
    null, { timeout: 10000 }).catch(() => {});
  const targeted = await page.$eval('[data-testid=cluster-last-query]', (q) => [q.dataset.routing, q.dataset.shards, q.textContent]);
  check('step 11\'s query is targeted at one shard', targeted[0] === 'targeted' && targeted[1] === 'shard0000',
    `${targetedCommand} → ${JSON.stringify(targeted)}`);
  const marked = await page.$$eval('[data-testid=cluster-shard][data-queried=true]', (ss) => ss.map((s) => s.dataset.shard));
  check('the shard that got it is marked', JSON.stringify(marked) === '["shard0000"]', JSON.stringify(marked));
  await page.screenshot({ path: join(outDir, 'cluster-targeted-desktop.png') });

  await run(page, 'db.customers.find({email: "paigejohnson@combot.com"}).toArray()');
  const scatter = await page.$eval('[data-testid=cluster-last-query]', (q) => [q.dataset.routing, q.dataset.shards, q.textContent]);
  check('a query without the shard key is a scatter-gather to both shards',
    scatter[0] === 'scatter-gather' && scatter[1] === 'shard0000,shard0001' && scatter[2].includes('find ecommerce.customers'),
    JSON.stringify(scatter));
  await page.screenshot({ path: join(outDir, 'cluster-scatter-desktop.png') });

  await page.click('[data-testid=lang-zh]');
  const clusterZh = await text(page, '[data-testid=cluster]');
  check('the cluster panel speaks Chinese', clusterZh.includes('分片集群') && clusterZh.includes('分散-收集'), clusterZh);
  await page.click('[data-testid=lang-en]');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('[data-testid=tab-data]');
  await page.waitForSelector('[data-testid=cluster]', { state: 'visible' });
  const clusterBox = await page.locator('[data-testid=cluster]').boundingBox();
  check('on a phone the cluster panel fits the screen\'s width', clusterBox && clusterBox.x >= 0
    && clusterBox.x + clusterBox.width <= 390, JSON.stringify(clusterBox));
  const clusterOverflow = await page.$$eval('[data-testid=cluster] li, [data-testid=cluster-last-query]',
    (items) => items.filter((i) => i.scrollWidth > i.clientWidth + 1).length);
  check('on a phone nothing in the cluster panel overflows', clusterOverflow === 0, `${clusterOverflow} items`);
  await page.screenshot({ path: join(outDir, 'cluster-phone.png') });
  await page.click('[data-testid=tab-console]');
  const phonePrompt = await text(page, '[data-testid=prompt]');
  check('on a phone the prompt is mongosh\'s for a router', phonePrompt === '[direct: mongos] ecommerce>', phonePrompt);
  await page.screenshot({ path: join(outDir, 'cluster-prompt-phone.png') });

  // An exercise page replays every step: the console's note names what the cluster then holds.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('about:blank');
  await page.goto(`${url}#lesson=${CLUSTER_LESSON}&exercise=1`);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=console-note]')]
    .some((n) => n.textContent.includes('social.')), null, { timeout: 60000 }).catch(() => {});
  const exerciseNote = await page.$$eval('[data-testid=console-note]', (ns) => ns.at(-1)?.textContent ?? '');
  check('on an exercise page the console names the cluster\'s collections',
    exerciseNote.includes('social.inbox (') && !exerciseNote.includes('(empty)'), exerciseNote);
  const chunkless = await page.$$eval('[data-testid=cluster-collection]', (cs) => cs
    .filter((c) => [...c.querySelectorAll('.shard-chunks')].every((s) => s.dataset.chunks === '0'))
    .map((c) => c.dataset.ns));
  const shardedCount = await page.locator('[data-testid=cluster-collection]').count();
  check('every sharded collection of the replayed lesson shows its chunks', shardedCount >= 4 && chunkless.length === 0,
    `${shardedCount} collections, without chunks: ${JSON.stringify(chunkless)}`);
  await page.screenshot({ path: join(outDir, 'cluster-exercise-desktop.png') });
  check('no uncaught page errors', pageErrors.length === 0, pageErrors.join('; '));
} catch (e) {
  check('exception', false, String(e));
} finally {
  await finish();
}
