#!/usr/bin/env node
// Writes the distinct games of PuzzleScript's regression suite (testdata.js), one `.txt` each,
// named by case order and the first case's name, for tools that run tessera on games it has
// never seen (check_generated.sh).
//
//   node tools/puzzlescript/suite_games.js TESTDATA.js OUTDIR
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const [suite, outDir] = process.argv.slice(2);
if (!suite || !outDir) {
    process.stderr.write('usage: suite_games.js TESTDATA.js OUTDIR\n');
    process.exit(2);
}
const cases = vm.runInNewContext(fs.readFileSync(suite, 'utf8') + '\n;testdata');
fs.mkdirSync(outDir, { recursive: true });
const seen = new Set();
let n = 0;
for (const [name, data] of cases) {
    const source = data[0];
    if (seen.has(source)) { continue; }
    seen.add(source);
    const slug = String(name).toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40);
    fs.writeFileSync(path.join(outDir, `${String(n).padStart(3, '0')}_${slug}.txt`), source);
    n += 1;
}
process.stdout.write(`${n} games\n`);
