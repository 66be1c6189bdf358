/** Writes test/sequencer/durations.json (ms per test file) from the output of `jest --json --outputFile=<file>`. */
const fs = require('node:fs');
const path = require('node:path');

const results = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const root = path.join(__dirname, '..', '..');
const out = {};
for (const r of results.testResults) {
  const perf = r.perfStats ?? {};
  out[path.relative(root, r.name).split(path.sep).join('/')] = Math.round(perf.runtime ?? perf.end - perf.start);
}
const sorted = Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
fs.writeFileSync(path.join(__dirname, 'durations.json'), JSON.stringify(sorted, null, 1) + '\n');
console.log(`${Object.keys(sorted).length} files`);
