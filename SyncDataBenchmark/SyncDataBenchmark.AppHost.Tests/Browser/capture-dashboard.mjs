// Opens the Aspire dashboard in Debian's chromium as a person would (the login link, then the pages) and captures
// a run's trace and the lab's meters. The dashboard draws over a live connection (Blazor), so each page is awaited
// until its text shows what it must show; a plain `chromium --screenshot` captures a blank page.
//   node capture-dashboard.mjs DASHBOARD_URL BROWSER_TOKEN TRACE_ID RESOURCE RUN_ID OUT_DIR
// Prints one JSON object: each page's URL, whether its awaited text came, its text and its picture's path.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const [base, token, traceId, resource, runId, outDir] = process.argv.slice(2);
const patience = Number(process.env.CAPTURE_PATIENCE_MS ?? 120000);
const userDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'syncdata-chromium-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  userDataDir,
  defaultViewport: { width: 1600, height: 1000 },
  protocolTimeout: patience,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

const waitForTexts = (page, texts) => page.waitForFunction(
  expected => expected.every(t => document.body.innerText.includes(t)), { timeout: patience, polling: 500 }, texts);

// Waits for every expected text in the page (after `then`, e.g. a click that opens a span's details), then captures
// it; on timeout, reports what the page showed instead.
async function capture(page, url, expected, file, then = async () => {}) {
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: patience });
  let found = true;
  try {
    await waitForTexts(page, expected.filter(t => t !== runId));
    await then(page);
    await waitForTexts(page, expected);
    // The chart and the waterfall are laid out after their text arrives.
    await new Promise(resolve => setTimeout(resolve, 2000));
  } catch {
    found = false;
  }
  const picture = path.join(outDir, file);
  await page.screenshot({ path: picture, fullPage: false });
  const text = await page.evaluate(() => document.body.innerText);
  return { url, expected, found, missing: expected.filter(t => !text.includes(t)), picture, text: text.slice(0, 20000) };
}

try {
  await fs.mkdir(outDir, { recursive: true });
  const page = await browser.newPage();
  await page.goto(`${base}/login?t=${token}`, { waitUntil: 'domcontentloaded', timeout: patience });
  await page.waitForFunction(() => !location.pathname.startsWith('/login'), { timeout: patience, polling: 500 });
  // The waterfall of the run's trace, with the details of SyncDataSource's COPY span (its database and the run's id) open.
  // Not the databases' resource names: the dashboard names a span's peer Source or Target only when it has matched the
  // address to those resources, which a clean machine's run once did not do (it showed 127.0.0.1:port); which database
  // each span reached is checked through the telemetry API (SyncRunIsOneTraceAcrossBothServicesAndDatabases).
  const trace = await capture(page, `${base}/traces/detail/${traceId}`,
    ['GET /sync', 'SomeService', 'SyncDataSource', 'postgresql', 'COPY', runId], 'dashboard-trace.png',
    async p => {
      // The span's name is the first text of its cell (SomeService's is "COPY FROM"); a click opens its details.
      const copy = await p.evaluateHandle(() => [...document.querySelectorAll('.span-name-container')]
        .find(e => [...e.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim() === 'COPY')));
      await copy.asElement()?.click();
    });
  const metrics = await capture(page,
    `${base}/metrics/resource/${encodeURIComponent(resource)}?meter=SyncData&instrument=sync.rows.written&duration=5&view=Graph`,
    ['sync.rows.written', 'sync.runs', 'sync.run.duration', 'dotnet.gc.collections', 'dotnet.gc.heap.total_allocated', 'db.client.operation.npgsql.bytes_read'], 'dashboard-metrics.png');
  console.log(JSON.stringify({ runId, trace, metrics }));
} finally {
  await browser.close();
  await fs.rm(userDataDir, { recursive: true, force: true });
}
