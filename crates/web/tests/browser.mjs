// Plays an exported page in a real browser: Debian's chromium driven by puppeteer-core (no browser
// download), from disk (file://), by key presses only.
//
//   node crates/web/tests/browser.mjs PAGE.html PLAN.json OUTDIR
//
// TESSERA_BROWSER=firefox drives Firefox instead (/usr/bin/firefox-esr, or TESSERA_FIREFOX),
// through WebDriver BiDi: downloads then go to OUTDIR/downloads by Firefox's preferences.
//
// PLAN: { "steps": [ ... ], "headless": true }, each step one of
//   {"keys": ["ArrowRight", "KeyZ", ...]}          key presses, one after another, each after the
//                                                  again turns of the one before ("nowait": true: not)
//   {"wait": "level", "equals": 2}                 until window.tessera.level() is 2 (10 s at most)
//   {"wait": "won", "includes": 1}                 until window.tessera.won() holds 1
//   {"record": "name"}                             keeps level(), hash(), won(), seed(), results()
//   {"screenshot": "name"}                         OUTDIR/name.png, and its colours counted
//   {"download": "name"}                           presses L, waits for the log's download: OUTDIR/name.tlog
//   {"sleep": ms}
//   {"reload": true}                               loads the page again (a later visit: the same
//                                                  browser profile, its localStorage kept)
// Prints one JSON object: the records, the screenshots' colour counts, the downloads, the time to
// the first frame (ms from navigation) and the sounds the page played. Exits 1 on any failure.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const require = createRequire(import.meta.url);
const puppeteer = require('puppeteer-core');
const [pagePath, planPath, outDir] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));
fs.mkdirSync(outDir, { recursive: true });

// The colours of a PNG screenshot (8-bit RGB or RGBA, as chromium writes them): "#rrggbb" → pixels.
function pngColours(buf) {
  let pos = 8;
  let width = 0, height = 0, type = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const kind = buf.toString('latin1', pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (kind === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      type = body[9];
      if (body[8] !== 8 || (type !== 2 && type !== 6)) throw new Error('unexpected PNG format');
    } else if (kind === 'IDAT') idat.push(body);
    pos += 12 + len;
  }
  const bpp = type === 6 ? 4 : 3;
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const cur = Buffer.alloc(stride);
  const prev = Buffer.alloc(stride);
  const counts = {};
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? cur[i - bpp] : 0;
      const b = prev[i];
      const c = i >= bpp ? prev[i - bpp] : 0;
      let v = line[i];
      if (f === 1) v += a;
      else if (f === 2) v += b;
      else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      cur[i] = v & 255;
    }
    for (let x = 0; x < width; x++) {
      const k = '#' + [0, 1, 2].map((j) => cur[x * bpp + j].toString(16).padStart(2, '0')).join('');
      counts[k] = (counts[k] || 0) + 1;
    }
    cur.copy(prev);
  }
  return { width, height, counts };
}

const firefox = process.env.TESSERA_BROWSER === 'firefox';
const userDir = fs.mkdtempSync(path.join(os.tmpdir(), firefox ? 'tessera-firefox-' : 'tessera-chromium-'));
const downloads = path.join(outDir, 'downloads');
fs.mkdirSync(downloads, { recursive: true });
const result = { records: {}, screenshots: {}, downloads: {}, errors: [], browser: firefox ? 'firefox' : 'chromium' };
let browser;
try {
  const headless = plan.headless !== false;
  browser = firefox
    ? await puppeteer.launch({
      browser: 'firefox',
      executablePath: process.env.TESSERA_FIREFOX || '/usr/bin/firefox-esr',
      headless,
      userDataDir: userDir,
      args: ['--width=800', '--height=600'],
      extraPrefsFirefox: {
        'browser.download.dir': path.resolve(downloads),
        'browser.download.folderList': 2,
        'browser.download.useDownloadDir': true,
        'browser.download.always_ask_before_handling_new_types': false,
        // (the downloads panel would open over the page and take its keys)
        'browser.download.alwaysOpenPanel': false,
        'browser.download.panel.shown': true,
        'browser.helperApps.neverAsk.saveToDisk': 'application/octet-stream',
        'media.autoplay.default': 0,
      },
      defaultViewport: headless ? { width: 800, height: 600 } : null,
    })
    : await puppeteer.launch({
      executablePath: process.env.TESSERA_CHROMIUM || '/usr/bin/chromium',
      headless,
      args: [
        ...(headless ? ['--headless'] : []),
        '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run', '--autoplay-policy=no-user-gesture-required',
        `--user-data-dir=${userDir}`, '--window-size=800,600',
      ],
      defaultViewport: headless ? { width: 800, height: 600 } : null,
    });
  result.version = await browser.version();
  const page = await browser.newPage();
  page.on('pageerror', (e) => result.errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') result.errors.push(m.text()); });
  if (!firefox) {
    const cdp = await page.createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads, eventsEnabled: true });
  }
  // No network: every request but the page's own file is refused (and counted).
  await page.setRequestInterception(true);
  result.requests = [];
  page.on('request', (r) => {
    if (r.url().startsWith('file://') || r.url().startsWith('data:') || r.url().startsWith('blob:')) r.continue();
    else { result.requests.push(r.url()); r.abort(); }
  });
  const began = Date.now();
  await page.goto('file://' + path.resolve(pagePath));
  await page.waitForFunction(() => window.tessera && (window.tessera.ready || window.tessera.error), { timeout: 30000 });
  const error = await page.evaluate(() => window.tessera.error);
  if (error) throw new Error('the page failed: ' + error);
  await page.waitForFunction(() => window.tessera.firstFrame !== null, { timeout: 30000 });
  result.firstFrameMs = await page.evaluate(() => window.tessera.firstFrame);
  result.loadWallMs = Date.now() - began;
  const state = () => page.evaluate(() => ({
    level: window.tessera.level(), hash: window.tessera.hash(), won: window.tessera.won(),
    seed: window.tessera.seed(), results: window.tessera.results(), screen: window.tessera.screen(),
    waiting: window.tessera.view().waiting, choices: window.tessera.view().lines,
  }));
  // WebDriver BiDi names a printable key by its character ("x", " "), not by its code.
  // A press is its key's down and up sent together, not the up after the down's answer: on a
  // loaded machine that answer can take longer than key_repeat_interval, and the page would
  // then see a held key and repeat it, as it should for a player who holds one.
  const press = async (k) => {
    const key = !firefox ? k : k === 'Space' ? ' ' : /^Key[A-Z]$/.test(k) ? k[3].toLowerCase() : k;
    await Promise.all([page.keyboard.down(key), page.keyboard.up(key)]);
  };
  for (const step of plan.steps) {
    if (step.keys) {
      for (const k of step.keys) {
        await press(k);
        // Wait out the again turns the key started before the next key (as a player does),
        // unless the step says not to (to look at an again turn on screen).
        if (!step.nowait) await page.waitForFunction(() => !window.tessera.view().pending || window.tessera.view().screen !== 'level', { timeout: 20000 })
          .catch(() => {});
        if (step.pause) await new Promise((r) => setTimeout(r, step.pause));
      }
    } else if (step.wait) {
      const fn = step.wait === 'level'
        ? (n) => window.tessera.level() === n
        : step.wait === 'won' ? (n) => window.tessera.won().includes(n) : (n) => window.tessera.screen() === n;
      await page.waitForFunction(fn, { timeout: 10000 }, step.equals ?? step.includes)
        .catch(async () => { throw new Error(`waited for ${step.wait} ${step.equals ?? step.includes}: ${JSON.stringify(await state())}`); });
    } else if (step.record) {
      result.records[step.record] = await state();
    } else if (step.screenshot) {
      const file = path.join(outDir, step.screenshot + '.png');
      await page.screenshot({ path: file });
      const c = pngColours(fs.readFileSync(file));
      result.screenshots[step.screenshot] = { file, width: c.width, height: c.height, colours: c.counts };
    } else if (step.download) {
      const before = new Set(fs.readdirSync(downloads));
      await press('KeyL');
      const t0 = Date.now();
      let got = null;
      while (Date.now() - t0 < 10000 && !got) {
        await new Promise((r) => setTimeout(r, 100));
        got = fs.readdirSync(downloads).find((f) => !before.has(f) && !f.endsWith('.crdownload') && !f.endsWith('.part')
          && fs.statSync(path.join(downloads, f)).size > 0);
      }
      if (!got) throw new Error('no log was downloaded');
      await new Promise((r) => setTimeout(r, 300)); // a download's last bytes
      const file = path.join(outDir, step.download + '.tlog');
      fs.renameSync(path.join(downloads, got), file);
      result.downloads[step.download] = { file, name: got };
      // Firefox's downloads panel can take the keyboard: give it back to the page.
      if (firefox) {
        await page.bringToFront().catch(() => {});
        await page.evaluate(() => window.focus()).catch(() => {});
        await page.mouse.click(2, 2).catch(() => {});
      }
    } else if (step.sleep) {
      await new Promise((r) => setTimeout(r, step.sleep));
    } else if (step.reload) {
      await page.reload();
      await page.waitForFunction(() => window.tessera && (window.tessera.ready || window.tessera.error), { timeout: 30000 });
      const e = await page.evaluate(() => window.tessera.error);
      if (e) throw new Error('the page failed after reloading: ' + e);
    }
  }
  result.sounds = await page.evaluate(() => window.tessera.sounds.slice());
  result.final = await state();
} catch (e) {
  result.failure = String(e && e.stack || e);
} finally {
  if (browser) await browser.close();
  fs.rmSync(userDir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
process.exit(result.failure ? 1 : 0);
