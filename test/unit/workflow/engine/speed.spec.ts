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

  // (Speed itself is measured by `npm run bench` — workload workflow-jobs —, not asserted here.) What would make an
  // advance slow is checked structurally: no re-parse of the definition, no deep copy of the data.
  test('an advance neither parses the definition text again nor copies the data it passes on', async () => {
    machineOf(bench);
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const data = { big: Array.from({ length: 1000 }, (_, i) => ({ i })) };
      let cp = initialCheckpoint(bench, data, CTX, new Date());
      const seen: unknown[] = [];
      for (;;) {
        const r = await advance(bench, cp, { now: () => new Date(), runTask: noTask });
        seen.push(r.checkpoint.root.in);
        cp = r.checkpoint;
        if (r.status !== 'RUNNING') break;
      }
      expect(parse.mock.calls.filter((c) => c[0] === bench)).toEqual([]);
      // The data array is the same object all along (only the changed path is new).
      const arrays = seen.filter((v): v is { big: unknown } => v !== null && typeof v === 'object' && 'big' in v).map((v) => v.big);
      expect(arrays.length).toBeGreaterThan(0);
      for (const a of arrays) expect(a).toBe(data.big);
    } finally {
      parse.mockRestore();
    }
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
