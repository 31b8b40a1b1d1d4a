import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const url = process.argv[2];
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'sprout-t-')), {
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});
const page = context.pages()[0] ?? await context.newPage();
page.on('console', (m) => { if (m.text().includes('TIMING')) console.log(m.text()); });
page.on('worker', (w) => w.on('console', (m) => { if (m.text().includes('TIMING')) console.log('[w]', m.text()); }));
const t0 = Date.now();
await page.goto(url);
await page.waitForFunction(() => (document.querySelector('[data-testid=status]')?.textContent ?? '').startsWith('ready'), null, { timeout: 30000 });
console.log('ready at', Date.now() - t0);
const nav = await page.evaluate(() => ({ origin: performance.timeOrigin, ui: performance.getEntriesByName('sprout:ui-started')[0]?.startTime, ready: performance.getEntriesByName('sprout:shell-ready')[0]?.startTime }));
console.log(JSON.stringify(nav));
await context.close();
