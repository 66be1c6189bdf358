#!/usr/bin/env node
/**
 * PostgreSQL's CPU per request of each target a bench run measured:
 *
 *   bench/tools/pg-cpu.sh > pg.log & P=$!
 *   BENCH_DATABASE_URL=... node dist/bench/run.js 2>&1 | while IFS= read -r l; do echo "$(date +%s%3N) $l"; done > bench.log
 *   kill $P; node bench/tools/pg-cpu-phases.js pg.log bench.log
 *
 * For each "measuring" phase of bench.log (lines prefixed with their epoch ms), the CPU ticks every postgres process
 * gained inside the phase (per process: last sample minus first, so connections opened or closed elsewhere do not
 * count), divided by the target's req/s from the summary table (with several rounds: the rounds' median).
 */
'use strict';
const fs = require('node:fs');

const samples = fs
  .readFileSync(process.argv[2], 'utf8')
  .trim()
  .split('\n')
  .map((line) => {
    const [t, ...rest] = line.split(' ');
    return { t: Number(t), ticks: new Map(rest.map((x) => x.split(':').map(Number))) };
  });
const bench = fs.readFileSync(process.argv[3], 'utf8').split('\n');
const phases = [];
for (const line of bench) {
  const m = /^(\d+) \[bench\] (.*?) \/ (.*?): measuring (\d+)s/.exec(line);
  // Several rounds: "target (round 2/3)"; its req/s is then the table's median over the rounds.
  if (m) phases.push({ t: Number(m[1]), workload: m[2], target: m[3], base: m[3].replace(/ \(round \d+\/\d+\)$/, ''), ms: Number(m[4]) * 1000 });
}
const reqPerSec = new Map();
for (const line of bench) {
  const m = /^\d+ (\S+)\s+(\S+)\s+([\d,]+)\s/.exec(line);
  if (m && !line.includes('[bench]')) reqPerSec.set(`${m[1]}/${m[2]}`, Number(m[3].replace(/,/g, '')));
}
for (const p of phases) {
  const inside = samples.filter((s) => s.t >= p.t + 200 && s.t <= p.t + p.ms);
  if (inside.length < 2) continue;
  const first = new Map();
  const last = new Map();
  for (const s of inside) {
    for (const [pid, v] of s.ticks) {
      if (!first.has(pid)) first.set(pid, v);
      last.set(pid, v);
    }
  }
  let ticks = 0;
  for (const [pid, v] of last) ticks += v - first.get(pid);
  const seconds = (inside[inside.length - 1].t - inside[0].t) / 1000;
  const rps = reqPerSec.get(`${p.workload}/${p.base}`);
  const perRequest = rps ? `${Math.round((ticks * 1e4) / (rps * seconds))} us per request (at ${rps} req/s)` : '';
  console.log(`${`${p.workload} / ${p.target}`.padEnd(48)} PostgreSQL ${(ticks / 100 / seconds).toFixed(2)} cores  ${perRequest}`);
}
