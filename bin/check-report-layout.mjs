#!/usr/bin/env -S node --experimental-websocket
// Opens report pages (report.html, compare.html, ...) in headless Chromium at given window widths and
// measures, through the DevTools protocol, whether any table, chart or the page itself is wider than the
// room it has (scrollWidth > clientWidth): a column clipped or scrolled away. Prints one line per page and
// width, and exits 1 when something overflows at a width listed in --must-fit (default 1400).
//
//   node --experimental-websocket bin/check-report-layout.mjs [--widths 1400,800] [--must-fit 1400]
//        [--screenshots DIR] [--chromium /usr/bin/chromium] page.html...
//
// Needs Chromium (apt-get install -y chromium); exits 2 with a message when there is none. Nothing is
// downloaded and the page loads nothing (its Content-Security-Policy forbids it): only file:// URLs.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
};
const widths = option('--widths', '1400,800').split(',').map(Number);
const mustFit = option('--must-fit', '1400').split(',').filter(Boolean).map(Number);
const screenshots = option('--screenshots', null);
const chromium = option('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const pages = args;
if (pages.length === 0) {
  console.error('usage: check-report-layout.mjs [--widths 1400,800] [--must-fit 1400] [--screenshots DIR] page.html...');
  process.exit(64);
}
if (!existsSync(chromium)) {
  console.error(`check-report-layout: no Chromium at ${chromium} (apt-get install -y chromium, or --chromium PATH); nothing checked`);
  process.exit(2);
}
if (typeof WebSocket === 'undefined') {
  console.error('check-report-layout: this Node has no WebSocket; run it with node --experimental-websocket (Node 20.10+)');
  process.exit(2);
}

const profile = mkdtempSync(join(tmpdir(), 'bp-layout-'));
const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--hide-scrollbars',
  `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
  // its singleton-socket folder goes in TMPDIR and outlives a killed browser: in the profile, it is removed with it
  { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TMPDIR: profile } });
let stderr = '';
browser.stderr.on('data', d => { stderr += d; });

let failures = 0;
try {
  const port = await debuggingPort(profile);
  const version = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
  const cdp = await connect(version.webSocketDebuggerUrl);
  for (const page of pages) {
    for (const width of widths) {
      const result = await measure(cdp, resolve(page), width);
      const over = result.overflowing;
      const verdict = over.length === 0 ? 'fits' : `OVERFLOWS: ${over.map(o => `${o.what} ${o.scrollWidth}>${o.clientWidth}px`).join(', ')}`;
      console.log(`${page} at ${width} px: page ${result.pageWidth} px wide in a ${result.viewport} px window; ${verdict}`);
      if (over.length > 0 && mustFit.includes(width)) failures++;
      if (screenshots) {
        mkdirSync(screenshots, { recursive: true });
        const file = join(screenshots, `${basename(dirname(resolve(page)))}-${basename(page, '.html')}-${width}.png`);
        writeFileSync(file, Buffer.from(result.png, 'base64'));
        console.log(`  screenshot: ${file}`);
      }
    }
  }
  cdp.close();
} finally {
  browser.kill();
  await sleep(200);
  rmSync(profile, { recursive: true, force: true });
}
process.exit(failures > 0 ? 1 : 0);

async function debuggingPort(dir) {
  const file = join(dir, 'DevToolsActivePort');
  for (let i = 0; i < 200; i++) {
    if (existsSync(file)) {
      const [port] = readFileSync(file, 'utf8').split('\n');
      if (port) return port;
    }
    if (browser.exitCode !== null) throw new Error(`Chromium exited (${browser.exitCode}): ${stderr}`);
    await sleep(50);
  }
  throw new Error(`Chromium did not open its DevTools port within 10 s: ${stderr}`);
}

function connect(url) {
  return new Promise((resolveConnection, reject) => {
    const ws = new WebSocket(url);
    let id = 0;
    const waiting = new Map();
    const events = [];
    ws.onmessage = m => {
      const message = JSON.parse(m.data);
      if (message.id && waiting.has(message.id)) {
        const { ok, fail } = waiting.get(message.id);
        waiting.delete(message.id);
        message.error ? fail(new Error(JSON.stringify(message.error))) : ok(message.result);
      } else if (message.method) {
        events.push(message);
      }
    };
    ws.onerror = e => reject(new Error(`DevTools connection failed: ${e.message || e.type}`));
    ws.onopen = () => resolveConnection({
      send: (method, params = {}, sessionId) => new Promise((ok, fail) => {
        const message = { id: ++id, method, params };
        if (sessionId) message.sessionId = sessionId;
        waiting.set(message.id, { ok, fail });
        ws.send(JSON.stringify(message));
      }),
      events,
      close: () => ws.close(),
    });
  });
}

async function measure(cdp, file, width) {
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  const send = (method, params) => cdp.send(method, params, sessionId);
  await send('Page.enable');
  await send('Emulation.setDeviceMetricsOverride', { width, height: 900, deviceScaleFactor: 1, mobile: false });
  await send('Page.navigate', { url: `file://${file}` });
  for (let i = 0; i < 100; i++) {
    const { result } = await send('Runtime.evaluate', { expression: 'document.readyState', returnByValue: true });
    if (result.value === 'complete') break;
    await sleep(50);
  }
  // The page allows no script of its own; this runs from DevTools, outside its Content-Security-Policy.
  const { result } = await send('Runtime.evaluate', {
    returnByValue: true,
    expression: `(() => {
      const describe = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '');
      const overflowing = [];
      for (const e of document.querySelectorAll('table, svg.chart, .cards, .charts, body')) {
        if (e.offsetParent === null && e.tagName !== 'BODY') continue; // hidden (the other scale of the CDF)
        if (e.scrollWidth > e.clientWidth + 1) overflowing.push({ what: describe(e), scrollWidth: e.scrollWidth, clientWidth: e.clientWidth });
      }
      const root = document.documentElement;
      if (root.scrollWidth > window.innerWidth + 1) overflowing.push({ what: 'page', scrollWidth: root.scrollWidth, clientWidth: window.innerWidth });
      return { overflowing, pageWidth: root.scrollWidth, viewport: window.innerWidth, height: root.scrollHeight };
    })()`,
  });
  const measured = result.value;
  let png = null;
  if (screenshots) {
    await send('Emulation.setDeviceMetricsOverride', { width, height: Math.min(measured.height, 6000), deviceScaleFactor: 1, mobile: false });
    png = (await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: false })).data;
  }
  await cdp.send('Target.closeTarget', { targetId });
  return { ...measured, png };
}
