/**
 * Sums the lines test/tools/cpu-environment.js wrote: `node test/tools/cpu-report.js run.jsonl [more.jsonl]`.
 * Prints each file's CPU (own + children, seconds), heaviest first, and the totals per database.
 */
const fs = require('node:fs');

const rows = process.argv.slice(2).flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
const s = (ms) => (ms / 1000).toFixed(2).padStart(7);
rows.sort((a, b) => b.userMs + b.systemMs + b.childrenMs - (a.userMs + a.systemMs + a.childrenMs));
console.log(`${'file'.padEnd(60)} ${'db'.padEnd(8)} ${'wall'.padStart(7)} ${'user'.padStart(7)} ${'sys'.padStart(7)} ${'child'.padStart(7)} ${'total'.padStart(7)} spawned`);
for (const r of rows) {
  console.log(`${r.file.padEnd(60)} ${r.database.padEnd(8)} ${s(r.wallMs)} ${s(r.userMs)} ${s(r.systemMs)} ${s(r.childrenMs)} ${s(r.userMs + r.systemMs + r.childrenMs)} ${String(r.spawned ?? "").padStart(4)}`);
}
const totals = {};
for (const r of rows) {
  const t = (totals[r.database] ??= { files: 0, wallMs: 0, userMs: 0, systemMs: 0, childrenMs: 0 });
  t.files++;
  for (const k of ['wallMs', 'userMs', 'systemMs', 'childrenMs']) t[k] += r[k];
}
for (const [db, t] of Object.entries(totals)) {
  console.log(`${db}: ${t.files} files, wall ${s(t.wallMs)} s, user ${s(t.userMs)} s, sys ${s(t.systemMs)} s, children ${s(t.childrenMs)} s, total CPU ${s(t.userMs + t.systemMs + t.childrenMs)} s`);
}
const commands = {};
for (const r of rows) for (const [k, n] of Object.entries(r.commands ?? {})) commands[`${r.database} ${k}`] = (commands[`${r.database} ${k}`] ?? 0) + n;
const spawnedRows = Object.entries(commands).sort((a, b) => b[1] - a[1]);
if (spawnedRows.length) console.log(`spawned processes:\n${spawnedRows.map(([k, n]) => `${String(n).padStart(6)} ${k}`).join('\n')}`);
