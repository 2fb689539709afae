#!/usr/bin/env node
// Checks `tessera generate --json` results in PuzzleScript's reference engine: for each JSON
// (the last line of generate's stdout) and the OUT file it names, every level listed is loaded
// from OUT in the reference (its entry in OUT's level list, messages counted, as the reference's
// loadLevel counts) and its listed solution is played there; the level must be won at the
// solution's last input, and OUT must compile without errors. Prints one line a level and a
// summary; exits 1 when any level fails.
//
//   node tools/puzzlescript/check_generated.js REFERENCE_DIR RESULT.json...
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const [refDir, ...results] = process.argv.slice(2);
if (!refDir || results.length === 0) {
    process.stderr.write('usage: check_generated.js REFERENCE_DIR RESULT.json...\n');
    process.exit(2);
}
const keys = { up: 0, left: 1, down: 2, right: 3, action: 4, tick: 'tick' };
const cases = [];
const names = [];
for (const file of results) {
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    const result = JSON.parse(lines[lines.length - 1]);
    const source = fs.readFileSync(result.out, 'utf8');
    for (const level of result.levels) {
        const inputs = level.solution.map((w) => {
            if (!(w in keys)) { throw new Error(`${file}: unknown command ${w}`); }
            return keys[w];
        });
        cases.push([`${path.basename(result.game)} ${level.number}`, [source, inputs, '', level.entry]]);
        names.push({ game: path.basename(result.game), number: level.number, steps: inputs.length });
    }
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-check-'));
const casesFile = path.join(tmp, 'cases.json');
fs.writeFileSync(casesFile, JSON.stringify(cases));
const answers = JSON.parse(execFileSync('node', [path.join(__dirname, 'reference.js'), refDir, casesFile],
    { maxBuffer: 1 << 30 }).toString());
fs.rmSync(tmp, { recursive: true, force: true });
let failed = 0;
answers.forEach((a, i) => {
    const n = names[i];
    const ok = !a.error && a.errors === 0 && a.won_at === n.steps - 1;
    if (!ok) { failed += 1; }
    const why = a.error ? `error: ${a.error}` : a.errors ? `${a.errors} compile errors` : `won at input ${a.won_at}`;
    process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${n.game} level ${n.number}: ${n.steps} steps, ${why}\n`);
});
process.stdout.write(`${answers.length - failed} passed, ${failed} failed\n`);
process.exit(failed ? 1 : 0);
