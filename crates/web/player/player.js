// The tessera web player: loads the WebAssembly player inlined in the page (window.TESSERA_GAME:
// the game's source and the module, gzip and base64), then passes keys to it and draws what it
// shows. Everything the game does is the module's (tessera's engine); this file is the loader,
// the keyboard, the canvas, the timers (again_interval, realtime_interval, key_repeat_interval),
// WebAudio and localStorage. For tests: window.tessera.level(), .hash(), .won(), .seed(), …
(async function () {
  'use strict';
  const data = window.TESSERA_GAME;
  const canvas = document.getElementById('screen');
  const ctx = canvas.getContext('2d');
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const api = { ready: false, sounds: [], error: null, firstFrame: null };
  window.tessera = api;

  function fail(message) {
    api.error = String(message);
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#f66';
    ctx.font = '16px monospace';
    String(message).split('\n').forEach((l, i) => ctx.fillText(l, 10, 30 + 20 * i));
  }

  // --- the module ---------------------------------------------------------------------------
  let ex;
  try {
    const gz = Uint8Array.from(atob(data.wasm), (c) => c.charCodeAt(0));
    const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'));
    const bytes = await new Response(stream).arrayBuffer();
    ex = (await WebAssembly.instantiate(bytes, {})).instance.exports;
  } catch (e) {
    canvas.width = innerWidth;
    canvas.height = innerHeight;
    fail('This page could not start its WebAssembly player: ' + e);
    return;
  }
  const mem = () => new Uint8Array(ex.memory.buffer);
  const put = (bytes) => {
    const p = ex.tessera_alloc(bytes.length);
    mem().set(bytes, p);
    return [p, bytes.length];
  };
  const out = () => mem().slice(ex.tessera_out_ptr(), ex.tessera_out_ptr() + ex.tessera_out_len());
  const outText = () => dec.decode(out());
  const call = (f, ...args) => {
    try {
      return f(...args);
    } catch (e) {
      fail('The player stopped: ' + e);
      throw e;
    }
  };

  if (call(ex.tessera_load, ...put(enc.encode(data.source))) !== 0) {
    canvas.width = innerWidth;
    canvas.height = innerHeight;
    fail('The game does not compile:\n' + outText());
    return;
  }
  const view = () => {
    ex.tessera_view();
    return JSON.parse(outText());
  };
  let v = view();
  const storageKey = v.key;
  try {
    const saved = localStorage.getItem(storageKey);
    if (saved) ex.tessera_set_progress(...put(enc.encode(saved)));
  } catch (_) {
    // No storage (a private window, or storage refused): progress is not kept.
  }
  const saveProgress = () => {
    try {
      ex.tessera_progress();
      localStorage.setItem(storageKey, outText());
    } catch (_) {}
  };
  const newSeed = () => {
    const r = new Uint32Array(2);
    crypto.getRandomValues(r);
    ex.tessera_set_seed(r[0], r[1]);
  };

  // --- sound ---------------------------------------------------------------------------------
  let audio = null;
  const buffers = new Map();
  const RATE = 5512; // tessera_sound::SAMPLE_RATE
  const UP = 8; // each 8-bit sample held 8 times: 44,096 Hz, a rate every browser takes
  function playSound(seed) {
    api.sounds.push(seed);
    if (!audio) return;
    let buf = buffers.get(seed);
    if (!buf) {
      if (call(ex.tessera_sound, ...put(enc.encode(seed))) !== 0) return;
      const s = out();
      buf = audio.createBuffer(1, Math.max(1, s.length * UP), RATE * UP);
      const ch = buf.getChannelData(0);
      for (let i = 0; i < s.length; i++) ch.fill((s[i] - 128) / 128, i * UP, i * UP + UP);
      buffers.set(seed, buf);
    }
    const src = audio.createBufferSource();
    src.buffer = buf;
    src.connect(audio.destination);
    src.start();
  }
  function drainSounds() {
    ex.tessera_sounds();
    for (const seed of JSON.parse(outText())) playSound(seed);
  }

  // --- drawing -------------------------------------------------------------------------------
  const board = document.createElement('canvas');
  const bctx = board.getContext('2d');
  function draw() {
    const dpr = window.devicePixelRatio || 1;
    const W = Math.max(1, Math.floor(innerWidth * dpr));
    const H = Math.max(1, Math.floor(innerHeight * dpr));
    if (canvas.width !== W || canvas.height !== H) {
      canvas.width = W;
      canvas.height = H;
    }
    ctx.fillStyle = v.background;
    ctx.fillRect(0, 0, W, H);
    if (v.board && v.width > 0) {
      ex.tessera_render();
      const px = out();
      board.width = v.width;
      board.height = v.height;
      bctx.putImageData(new ImageData(new Uint8ClampedArray(px.buffer, 0, px.length), v.width, v.height), 0, 0);
      // Whole pixels a sprite pixel where the window allows it, as PuzzleScript scales.
      let s = Math.min(W / v.width, H / v.height);
      if (s >= 1) s = Math.floor(s);
      const w = v.width * s;
      const h = v.height * s;
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(board, Math.floor((W - w) / 2), Math.floor((H - h) / 2), w, h);
    } else {
      const lines = v.lines;
      const longest = Math.max(20, ...lines.map((l) => l.length));
      const size = Math.floor(Math.min(H / (lines.length + 4), (W * 0.9) / (longest * 0.62)));
      ctx.font = size + 'px monospace';
      ctx.fillStyle = v.text;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      const top = H / 2 - ((lines.length - 1) * size * 1.2) / 2;
      lines.forEach((l, i) => ctx.fillText(l, W / 2, top + i * size * 1.2));
    }
    if (api.firstFrame === null) api.firstFrame = performance.now();
  }

  // --- time: again turns, the realtime clock -------------------------------------------------
  let againTimer = null;
  let clock = null;
  function refresh() {
    drainSounds();
    v = view();
    saveProgress();
    draw();
    if (againTimer === null && v.pending && v.delay !== null) {
      againTimer = setTimeout(() => {
        againTimer = null;
        newSeed();
        call(ex.tessera_advance);
        refresh();
      }, v.delay);
    }
    const ticking = v.realtime && v.board && !v.pending;
    if (ticking && clock === null) {
      clock = setInterval(() => press(8), v.realtime);
    } else if (!ticking && clock !== null) {
      clearInterval(clock);
      clock = null;
    }
  }
  function resetClock() {
    if (clock !== null) {
      clearInterval(clock);
      clock = null;
    }
  }

  // --- keys ----------------------------------------------------------------------------------
  function download(bytes, name) {
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }
  let lastDir = -1;
  let lastDirAt = 0;
  // A held key's repeat is `repeat`: dropped while again turns play, where a press is kept.
  function press(code, repeat = false) {
    // throttle_movement: the same direction again within key_repeat_interval is not taken.
    if (v.throttle_movement && code <= 3) {
      const now = performance.now();
      if (code === lastDir && now - lastDirAt < v.key_repeat) return;
      lastDir = code;
      lastDirAt = now;
    }
    if (code !== 8) resetClock();
    newSeed();
    const report = call(repeat ? ex.tessera_key_repeat : ex.tessera_key, code);
    if (report === 1) {
      ex.tessera_log();
      const log = out();
      api.lastLog = log;
      if (log.length > 0) download(log, v.log_name || 'session.tlog');
    }
    refresh();
  }
  const KEYS = {
    ArrowUp: 0, KeyW: 0, ArrowLeft: 1, KeyA: 1, ArrowDown: 2, KeyS: 2, ArrowRight: 3, KeyD: 3,
    KeyX: 4, Space: 4, Enter: 4, KeyC: 4, KeyZ: 5, KeyU: 5, Backspace: 5, KeyR: 6, Escape: 7, KeyL: 9,
  };
  let held = null;
  let repeat = null;
  addEventListener('keydown', (e) => {
    const code = KEYS[e.code];
    if (code === undefined || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    if (!audio && (window.AudioContext || window.webkitAudioContext)) {
      audio = new (window.AudioContext || window.webkitAudioContext)();
    }
    if (e.repeat) return; // our own repeat, at key_repeat_interval
    press(code);
    if (repeat !== null) clearInterval(repeat);
    repeat = null;
    held = e.code;
    if (code <= 5) {
      repeat = setInterval(() => {
        if (code !== 4 || !v.norepeat_action) press(code, true);
      }, v.key_repeat);
    }
  });
  addEventListener('keyup', (e) => {
    if (e.code === held && repeat !== null) {
      clearInterval(repeat);
      repeat = null;
      held = null;
    }
  });
  addEventListener('blur', () => {
    if (repeat !== null) clearInterval(repeat);
    repeat = null;
  });
  addEventListener('resize', draw);

  // --- for tests and tools -------------------------------------------------------------------
  api.level = () => v.level;
  api.hash = () => v.hash;
  api.won = () => v.won.slice();
  api.seed = () => v.seed;
  api.results = () => v.results.slice();
  api.screen = () => v.screen;
  api.view = () => view();
  api.press = press;
  api.log = () => {
    ex.tessera_log();
    return Array.from(out());
  };
  api.ready = true;
  refresh();
  canvas.focus();
})();
