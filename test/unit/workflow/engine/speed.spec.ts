import { advance, initialCheckpoint, type Checkpoint } from '../../../../src/services/workflow/engine';
import { machineOf } from '../../../../src/services/workflow/engine/compile';
import { CTX, noTask } from './helpers';

const bench = JSON.stringify({
  StartAt: 'A',
  States: {
    A: { Type: 'Pass', Result: { a: 1 }, ResultPath: '$.a', Next: 'B' },
    B: { Type: 'Pass', Next: 'C' },
    C: { Type: 'Pass', End: true },
  },
});

describe('speed', () => {
  test('a definition is compiled once per text', () => {
    expect(machineOf(bench)).toBe(machineOf(String(bench)));
    const obj = JSON.parse(bench);
    expect(machineOf(obj)).toBe(machineOf(obj));
  });

  test('the 3-state Pass-only job needs microseconds per advance (with a JSON round trip of the checkpoint)', async () => {
    const now = () => new Date();
    const run = async (jobs: number) => {
      let advances = 0;
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < jobs; i++) {
        let cp = initialCheckpoint(bench, { job: i }, CTX, now());
        for (;;) {
          const r = await advance(bench, cp, { now, runTask: noTask });
          advances += 1;
          cp = JSON.parse(JSON.stringify(r.checkpoint)) as Checkpoint;
          if (r.status !== 'RUNNING') break;
        }
      }
      return Number(process.hrtime.bigint() - t0) / advances / 1000;
    };
    await run(500); // warm up
    const perAdvance = Math.min(await run(3000), await run(3000));
    // about 3 µs bare and 6 µs with the round trip on node; jest's module wrapper and a shared machine add more —
    // the bound catches a per-advance re-parse of the definition or a deep copy of the data, not jitter
    expect(perAdvance).toBeLessThan(60);
  });

  test('a 2000-item Map runs in batches of MaxConcurrency, one transition per iteration per advance', async () => {
    const def = {
      StartAt: 'M',
      States: { M: { Type: 'Map', MaxConcurrency: 10, ItemProcessor: { StartAt: 'P', States: { P: { Type: 'Pass', End: true } } }, End: true } },
    };
    let cp = initialCheckpoint(def, Array.from({ length: 2000 }, (_, i) => i), CTX, new Date());
    let steps = 0;
    const t0 = Date.now();
    for (;;) {
      const r = await advance(def, cp, { now: () => new Date(), runTask: noTask });
      steps += 1;
      cp = r.checkpoint;
      if (r.status !== 'RUNNING') {
        expect(JSON.parse(r.output!)).toHaveLength(2000);
        break;
      }
    }
    // 1 advance enters the Map, then each advance starts 10 iterations and runs their one Pass state
    expect(steps).toBe(201);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
});
