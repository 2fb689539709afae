#!/usr/bin/env node
// tessera's differential oracle: runs cases through PuzzleScript's reference engine (under
// Node.js) the way its own test runner does (testingFrameWork.js `runTest`), and prints what the
// reference ends with, so tessera's engine can be compared with it on inputs the suite does not
// have.
//
//   node tools/puzzlescript/reference.js REFERENCE_DIR CASES.json > ANSWERS.json
//
// REFERENCE_DIR is `shared/benchmarks/puzzlescript/reference`. CASES.json is an array of cases in
// testdata.js's shape, `[name, [source, inputs, expected, level?, seed?]]` (`expected` is
// ignored). The output is an array, one entry per case: `{"level": convertLevelToString(),
// "sounds": soundHistory, "won_at": N}`, or `{"error": message}` when the reference threw
// (`won_at`: the index of the input after which the level was first won, its `again` turns
// included, -1 at its start, or null: a solver's solution wins there at its last input; the
// board after a win is what the reference's test runner leaves, which may have run one more
// `again` turn on the won level). Both also carry
// the compiler's verdict: `"errors"`, its error count (`errorCount`: a game with errors is not
// loaded, so `level` is then what the previous case left), and `"messages"`, its errors and
// warnings as text (`errorStrings`, HTML stripped).
'use strict';

const fs = require('fs');
const vm = require('vm');
const path = require('path');

const [refDir, casesFile] = process.argv.slice(2);
if (!refDir || !casesFile) {
    process.stderr.write('usage: reference.js REFERENCE_DIR CASES.json\n');
    process.exit(2);
}

// The browser shims the reference's own node runner sets up.
const storage = {};
global.localStorage = {
    getItem(k) { return Object.prototype.hasOwnProperty.call(storage, k) ? storage[k] : null; },
    setItem(k, v) { storage[k] = String(v); },
    removeItem(k) { delete storage[k]; },
};
global.document = {
    URL: 'test://',
    body: { classList: { contains() { return false; } }, addEventListener() {}, removeEventListener() {} },
    createElement() { return { style: {}, innerHTML: '', textContent: '', getContext() { return null; } }; },
    getElementById() { return null; },
};
global.window = global;
global.lastDownTarget = null;
global.canvas = null;
global.input = global.document.createElement('TEXTAREA');
for (const f of ['canvasResize', 'redraw', 'forceRegenImages', 'consolePrintFromRule', 'consolePrint',
    'consoleError', 'consoleCacheDump', 'addToDebugTimeline', 'killAudioButton', 'showAudioButton',
    'regenSpriteImages', 'jumpToLine', 'printLevel', 'playSound']) {
    global[f] = function () {};
}
global.console_print_raw = function () {};
global.levelString = '';
global.inputString = '';
global.outputString = '';
global.editor = { getValue() { return global.levelString; } };
global.PuzzleScriptTestAssertions = { push() {}, equal() {} };
global.UnitTestingThrow = function (e) { throw e; };

const files = ['js/storagewrapper.js', 'js/bitvec.js', 'js/level.js', 'js/languageConstants.js',
    'js/globalVariables.js', 'js/debug.js', 'js/font.js', 'js/rng.js', 'js/riffwave.js', 'js/sfxr.js',
    'js/codemirror/stringstream.js', 'js/colorhelpers.js', 'js/colors.js', 'js/engine.js', 'js/parser.js',
    'js/compiler.js', 'js/soundbar.js'];
let code = '';
for (const f of files) {
    code += `\n// ---- ${f} ----\n` + fs.readFileSync(path.join(refDir, f), 'utf8') + '\n';
}
// The driver runs in the same script scope, so it sees the reference's top-level `let`s.
code += `
function verdict() {
    const text = (h) => String(h).replace(/<[^>]*>/g, '').replace(/\\s+/g, ' ').trim();
    return { errors: errorCount, messages: errorStrings.map(text) };
}
// The input after which the level was first won (-1: at its start), or null.
let wonAt = null;
let step = -1;
const doWin = DoWin;
DoWin = function () {
    if (wonAt === null) { wonAt = step; }
    return doWin();
};
global.__tesseraRun = function (data) {
    unitTesting = true;
    lazyFunctionGeneration = false;
    levelString = data[0];
    if (typeof resetParserErrorState === 'function') { resetParserErrorState(); } else { errorStrings = []; errorCount = 0; }
    const inputs = data[1];
    const level = data[3] === undefined ? 0 : data[3];
    const seed = data[4] === undefined ? null : data[4];
    try {
        compile(['loadLevel', level], levelString, seed);
        wonAt = null;
        step = -1;
        while (againing) { againing = false; processInput(-1); }
        for (const [i, val] of inputs.entries()) {
            step = i;
            if (val === 'undo') { DoUndo(false, true); }
            else if (val === 'restart') { DoRestart(); }
            else if (val === 'tick') { processInput(-1); }
            else { processInput(val); }
            while (againing) { againing = false; processInput(-1); }
        }
        return { level: convertLevelToString(), sounds: soundHistory.slice(), won_at: wonAt, ...verdict() };
    } catch (e) {
        return { error: String(e && e.message || e), ...verdict() };
    } finally {
        unitTesting = false;
        lazyFunctionGeneration = true;
    }
};
`;
const log = console.log;
console.log = function () {};
vm.runInThisContext(code, { filename: 'reference_combined.js' });
const cases = JSON.parse(fs.readFileSync(casesFile, 'utf8'));
const out = cases.map((c) => global.__tesseraRun(c[1]));
process.stdout.write(JSON.stringify(out));
console.log = log;
