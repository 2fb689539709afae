#!/usr/bin/env node
// tessera's oracle for sounds: runs PuzzleScript's reference synthesiser (`sfxr.js`, with its
// `rng.js` and `riffwave.js`, under Node.js) on sound seeds, the way the reference makes a sound
// when it has no Web Audio: `generateFromSeed`, `SoundEffect.generate` with `cacheSeed`'s volume
// and rate, then `play()`, which quantises to 8 bits and writes the WAV (`MakeRiff`).
//
//   node tools/puzzlescript/sfxr.js REFERENCE_DIR SEEDS.txt WAVS.bin > PARAMS.jsonl
//   node tools/puzzlescript/sfxr.js REFERENCE_DIR SEEDS.txt --time REPEATS
//
// SEEDS.txt holds one seed a line (decimal digits). For each, in order, one JSON line on stdout:
// `{"seed": "...", "params": {generateFromSeed's fields, each a double's 64 bits in hex},
// "wav": LENGTH}`, and the WAV's bytes
// appended to WAVS.bin. With `--time`, nothing is written: every seed's WAV is made REPEATS
// times and the time taken is printed as `{"seeds": N, "repeats": R, "ms": T}`.
//
// The reference fills the noise waveform from `Math.random()`; here `Math.random` is, for each
// sound, the reference's own RC4 generator keyed by "sfxr-noise " and the seed's digits (without
// leading zeros), which is the noise tessera's synthesiser uses (`tessera_sound::seed_noise`).
'use strict';

const fs = require('fs');
const vm = require('vm');
const path = require('path');

const [refDir, seedsFile, third, fourth] = process.argv.slice(2);
if (!refDir || !seedsFile || !third) {
    process.stderr.write('usage: sfxr.js REFERENCE_DIR SEEDS.txt (WAVS.bin | --time REPEATS)\n');
    process.exit(2);
}

// What the reference touches outside its files: no AudioContext (so it takes its WAV path), an
// `Audio` element that is never played, and `window.console`.
global.window = global;
global.Audio = function () { this.play = function () {}; };

// Each file is its own script, as in the browser (riffwave.js is not strict code); scripts share
// one global scope, so the driver sees the reference's top-level bindings.
for (const f of ['js/rng.js', 'js/riffwave.js', 'js/sfxr.js']) {
    vm.runInThisContext(fs.readFileSync(path.join(refDir, f), 'utf8'), { filename: f });
}
const code = `
// A double's bits as 16 hex digits (exact, where JSON's decimals would be read back rounded by
// some parsers, and would lose the sign of zero).
const bitsView = new DataView(new ArrayBuffer(8));
function bits(x) {
    bitsView.setFloat64(0, x);
    return bitsView.getBigUint64(0).toString(16).padStart(16, '0');
}
global.__tesseraSound = function (seedText) {
    const digits = seedText.replace(/^0+(?=\\d)/, '');
    const noise = new RNG('sfxr-noise ' + digits);
    Math.random = function () { return noise.uniform(); };
    const drawn = generateFromSeed(seedText);
    const params = {};
    for (const k of Object.keys(drawn)) {
        if (k === 'wave_type' || k.startsWith('p_')) { params[k] = bits(drawn[k]); }
    }
    // cacheSeed's settings, then the WAV play() makes.
    drawn.sound_vol = SOUND_VOL;
    drawn.sample_rate = SAMPLE_RATE;
    drawn.bit_depth = BIT_DEPTH;
    const sound = SoundEffect.generate(drawn);
    let wav = null;
    const makeRiff = MakeRiff;
    MakeRiff = function (rate, bits, data) { const r = makeRiff(rate, bits, data); wav = r.wav; return r; };
    try { sound.play(); } finally { MakeRiff = makeRiff; }
    return { params, wav };
};
`;
vm.runInThisContext(code, { filename: 'puzzlescript-sfxr' });

const seeds = fs.readFileSync(seedsFile, 'utf8').split('\n').map((s) => s.trim()).filter((s) => s !== '');
if (third === '--time') {
    const repeats = Number(fourth || '1');
    const start = process.hrtime.bigint();
    for (let r = 0; r < repeats; r++) {
        for (const s of seeds) { global.__tesseraSound(s); }
    }
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    process.stdout.write(JSON.stringify({ seeds: seeds.length, repeats, ms }) + '\n');
} else {
    const out = fs.openSync(third, 'w');
    const lines = [];
    for (const s of seeds) {
        let answer;
        try {
            answer = global.__tesseraSound(s);
        } catch (e) {
            lines.push(JSON.stringify({ seed: s, error: String(e) }));
            continue;
        }
        fs.writeSync(out, Buffer.from(answer.wav));
        lines.push(JSON.stringify({ seed: s, params: answer.params, wav: answer.wav.length }));
    }
    fs.closeSync(out);
    process.stdout.write(lines.join('\n') + '\n');
}
