/**
 * Writes test/sequencer/durations.json (ms per test file, longest first) from the output of
 * `jest --json --outputFile=<file>`; given several outputs (both suites of a run), the mean of each file's times.
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
/** The file's path in this checkout (the output may come from another clone, e.g. CI's). */
function inCheckout(abs) {
  const parts = abs.split(/[\\/]/);
  for (let i = 1; i < parts.length; i++) {
    const rel = parts.slice(i).join('/');
    if (fs.existsSync(path.join(root, rel))) return rel;
  }
  return null;
}
const sums = {};
for (const file of process.argv.slice(2)) {
  for (const r of JSON.parse(fs.readFileSync(file, 'utf8')).testResults) {
    const name = inCheckout(r.name);
    if (name) (sums[name] ??= []).push(r.endTime - r.startTime);
  }
}
const mean = (xs) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
const sorted = Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, mean(v)]).sort((a, b) => b[1] - a[1]));
fs.writeFileSync(path.join(__dirname, 'durations.json'), JSON.stringify(sorted, null, 1) + '\n');
console.log(`${Object.keys(sorted).length} files`);
