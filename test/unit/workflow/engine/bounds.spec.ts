/**
 * Resource bounds of the engine with hostile data (issue 20.5), measured structurally: characters of JSON text the
 * engine builds (engineStats), the stored checkpoint's length, the history bytes a job stores, pauses between batches.
 */
import {
  advance,
  decodeCheckpoint,
  encodeCheckpoint,
  engineStats,
  initialCheckpoint,
  type Checkpoint,
  type HistoryEvent,
  type Json,
} from '../../../../src/services/workflow/engine';
import { CTX, Clock } from './helpers';

interface Measured {
  status: string;
  output?: string;
  error?: string;
  cause?: string;
  events: HistoryEvent[];
  /** characters of JSON text the engine built (events' data and stored checkpoints) */
  built: number;
  /** longest stored checkpoint */
  maxCheckpoint: number;
  /** history bytes as stored (each event's details as JSON) */
  historyBytes: number;
  pauses: number;
}

async function measure(definition: object, input: Json, opts: { maxHistoryBytes?: number } = {}): Promise<Measured> {
  const clock = new Clock();
  const before = engineStats.serializedChars;
  let cp: Checkpoint = initialCheckpoint(definition as never, input, CTX, clock.now());
  const events: HistoryEvent[] = [];
  let maxCheckpoint = 0;
  let pauses = 0;
  for (let i = 0; i < 10_000; i++) {
    const text = encodeCheckpoint(cp);
    maxCheckpoint = Math.max(maxCheckpoint, text.length);
    cp = decodeCheckpoint(text);
    const r = await advance(definition as never, cp, {
      now: clock.now,
      runTask: async () => null,
      maxHistoryBytes: opts.maxHistoryBytes,
      pause: async () => void pauses++,
    });
    events.push(...r.events);
    cp = r.checkpoint;
    if (r.status !== 'RUNNING') {
      const historyBytes = events.reduce((n, e) => {
        const { id: _i, previousEventId: _p, timestamp: _t, type: _y, ...details } = e;
        return n + Buffer.byteLength(JSON.stringify(details));
      }, 0);
      return { status: r.status, output: r.output, error: r.error, cause: r.cause, events, built: engineStats.serializedChars - before, maxCheckpoint, historyBytes, pauses };
    }
    if (r.wakeAt) clock.t = Date.parse(r.wakeAt);
  }
  throw new Error('did not end');
}

const KB = 1024;
const MB = 1024 * 1024;

describe('engine resource bounds', () => {
  const input100k = { blob: 'x'.repeat(100 * KB) };
  const parallel1000 = {
    StartAt: 'Fan',
    States: {
      Fan: {
        Type: 'Parallel',
        Branches: Array.from({ length: 1000 }, (_, i) => ({ StartAt: `B${i}`, States: { [`B${i}`]: { Type: 'Pass', Result: i, End: true } } })),
        End: true,
      },
    },
  };

  it('1,000 Parallel branches of a 100 KB input: the checkpoint holds the input once, the history quota ends the job before it is written, batches pause', async () => {
    const m = await measure(parallel1000, input100k, { maxHistoryBytes: 4 * MB });
    expect([m.status, m.error]).toEqual(['FAILED', 'States.DataLimitExceeded']);
    expect(m.cause).toContain('history');
    // Stored: under the quota (the step that would pass it was not taken), and checkpoints never width x input.
    expect(m.historyBytes).toBeLessThan(4 * MB);
    expect(m.maxCheckpoint).toBeLessThan(2 * 100 * KB + 64 * KB);
    // Built: the input's text a few times, not once per branch (100 MB before).
    expect(m.built).toBeLessThan(2 * MB);
  });

  it('with no history quota the same fan-out runs every branch with one text of the input; a result past 256 KiB fails while being collected', async () => {
    const m = await measure(parallel1000, input100k);
    expect([m.status, m.error]).toEqual(['SUCCEEDED', undefined]);
    expect(m.events.filter((e) => e.type === 'PassStateEntered')).toHaveLength(1000);
    // 1,000 events carry the 100 KB input, built once per step.
    expect(m.built).toBeLessThan(3 * MB);
    expect(m.maxCheckpoint).toBeLessThan(2 * 100 * KB + 64 * KB);
    expect(m.pauses).toBeGreaterThanOrEqual(Math.floor(1000 / 64));

    const echo = { ...parallel1000, States: { Fan: { ...parallel1000.States.Fan, Branches: parallel1000.States.Fan.Branches.map((b, i) => ({ StartAt: `B${i}`, States: { [`B${i}`]: { Type: 'Pass', End: true } } })) } } };
    const big = await measure(echo, input100k);
    expect([big.status, big.error]).toEqual(['FAILED', 'States.DataLimitExceeded']);
    expect(big.built).toBeLessThan(3 * MB);
    expect(big.maxCheckpoint).toBeLessThan(2 * 100 * KB + 64 * KB);
  });

  it('a Map copying a 200 KB input into 120 iterations derives each input when it starts; the checkpoint holds the input once', async () => {
    const def = {
      StartAt: 'M',
      States: {
        M: {
          Type: 'Map',
          ItemsPath: '$.items',
          ItemSelector: { 'all.$': '$', 'i.$': '$$.Map.Item.Value' },
          ItemProcessor: { StartAt: 'I', States: { I: { Type: 'Pass', OutputPath: '$.i', End: true } } },
          End: true,
        },
      },
    };
    const input = { blob: 'y'.repeat(200 * KB), items: Array.from({ length: 120 }, (_, i) => i) };
    const m = await measure(def, input);
    expect([m.status, m.error]).toEqual(['SUCCEEDED', undefined]);
    // Checkpoints: the input once (plus the running iterations' small parts), never 40 or 120 copies.
    expect(m.maxCheckpoint).toBeLessThan(2 * 200 * KB + 64 * KB);
    // The history carries each iteration's 200 KB input (as Step Functions' does); the quota bounds it.
    const limited = await measure(def, input, { maxHistoryBytes: 4 * MB });
    expect([limited.status, limited.error]).toEqual(['FAILED', 'States.DataLimitExceeded']);
    expect(limited.historyBytes).toBeLessThan(4 * MB);
    expect(limited.maxCheckpoint).toBeLessThan(2 * 200 * KB + 64 * KB);
  });

  it('a JSONata ItemSelector is evaluated when each iteration starts: checkpoints hold the input once, not one selected copy per item', async () => {
    const def = {
      QueryLanguage: 'JSONata',
      StartAt: 'M',
      States: {
        M: {
          Type: 'Map',
          Items: '{% $states.input.items %}',
          ItemSelector: { all: '{% $states.input %}', i: '{% $states.context.Map.Item.Value %}', at: '{% $states.context.Map.Item.Index %}' },
          ItemProcessor: { StartAt: 'I', States: { I: { Type: 'Pass', Output: '{% $states.input.i * 10 + $states.input.at %}', End: true } } },
          End: true,
        },
      },
    };
    const input = { blob: 'y'.repeat(200 * KB), items: Array.from({ length: 120 }, (_, i) => i) };
    const m = await measure(def, input);
    expect([m.status, m.error]).toEqual(['SUCCEEDED', undefined]);
    expect(JSON.parse(m.output!)).toEqual(input.items.map((i) => i * 11));
    expect(m.maxCheckpoint).toBeLessThan(2 * 200 * KB + 64 * KB);
  });

  it('a JSONata ItemSelector that fails on one item fails the Map with States.QueryEvaluationError when that iteration starts', async () => {
    const def = {
      QueryLanguage: 'JSONata',
      StartAt: 'M',
      States: {
        M: {
          Type: 'Map',
          MaxConcurrency: 1,
          Items: '{% $states.input.items %}',
          ItemSelector: { v: '{% $states.context.Map.Item.Value.n > 0 ? $states.context.Map.Item.Value.n : $error("bad item") %}' },
          ItemProcessor: { StartAt: 'I', States: { I: { Type: 'Pass', End: true } } },
          End: true,
        },
      },
    };
    const m = await measure(def, { items: [{ n: 1 }, { n: 2 }, { n: 0 }, { n: 4 }] });
    expect([m.status, m.error]).toEqual(['FAILED', 'States.QueryEvaluationError']);
    // the first two iterations ran (and succeeded) before the third's input was made
    expect(m.events.filter((e) => e.type === 'MapIterationSucceeded')).toHaveLength(2);
    expect(m.events.find((e) => e.type === 'EvaluationFailed')).toBeTruthy();
  });

  it('a Parameters or intrinsic that multiplies its input fails with States.DataLimitExceeded before its text is built', async () => {
    const params: Record<string, string> = {};
    for (let i = 0; i < 3000; i++) params[`k${i}.$`] = '$';
    const many = await measure({ StartAt: 'P', States: { P: { Type: 'Pass', Parameters: params, End: true } } }, input100k);
    expect([many.status, many.error]).toEqual(['FAILED', 'States.DataLimitExceeded']);
    // 300 MB as text; what was built is the input's event and checkpoints only.
    expect(many.built).toBeLessThan(MB);

    const args = Array.from({ length: 3000 }, () => '$.blob').join(', ');
    for (const expr of [`States.JsonToString(States.Array(${args}))`, `States.Format('${'{}'.repeat(3000)}', ${args})`, `States.Array(${args})`]) {
      const m = await measure({ StartAt: 'T', States: { T: { Type: 'Task', Resource: 'echo', Parameters: { 'v.$': expr }, End: true } } }, input100k);
      expect([m.status, m.error]).toEqual(['FAILED', 'States.DataLimitExceeded']);
      expect(m.built).toBeLessThan(MB);
    }
    // A Task's answer over the limit is measured, never turned into text.
    const huge = Array.from({ length: 3000 }, () => input100k);
    const before = engineStats.serializedChars;
    const clock = new Clock();
    let cp = initialCheckpoint({ StartAt: 'T', States: { T: { Type: 'Task', Resource: 'x', End: true } } } as never, {}, CTX, clock.now());
    cp = (await advance({ StartAt: 'T', States: { T: { Type: 'Task', Resource: 'x', End: true } } } as never, cp, { now: clock.now, runTask: async () => null })).checkpoint;
    const r = await advance({ StartAt: 'T', States: { T: { Type: 'Task', Resource: 'x', End: true } } } as never, cp, { now: clock.now, runTask: async () => huge as never });
    expect([r.status, r.error]).toEqual(['FAILED', 'States.DataLimitExceeded']);
    expect(engineStats.serializedChars - before).toBeLessThan(64 * KB);
  });

  it('stored checkpoints keep data exactly, shared once; data with the reference key cannot pose as a reference', () => {
    const shared = { text: 'z'.repeat(5000), n: [1, 2, 3] };
    const sneaky = { '\u0000r': 0, e: [['a', 1]] };
    const cp = initialCheckpoint({ StartAt: 'A', States: { A: { Type: 'Pass', End: true } } } as never, { a: shared, b: shared, c: sneaky, s: shared.text, t: shared.text }, CTX, new Date(0));
    cp.root.kd = [1, 2, 3].map((i) => ({ s: 'A', p: 'E' as const, in: shared, l: 0, k: `${i}`, n: 0 }));
    const text = encodeCheckpoint(cp);
    expect(text.length).toBeLessThan(2 * 5000 + 2000);
    const back = decodeCheckpoint(text);
    expect(back).toEqual(JSON.parse(JSON.stringify(cp)));
    const data = back.input as Record<string, any>;
    expect(data.a).toBe(data.b);
    expect(back.root.kd![2].in).toBe(data.a);
    expect(data.c).toEqual(sneaky);
    // without sharing: plain JSON, and plain JSON (older checkpoints) decodes as it is
    const plain = initialCheckpoint({ StartAt: 'A', States: { A: { Type: 'Pass', End: true } } } as never, { x: 1 }, CTX, new Date(0));
    plain.root.in = { x: 1 };
    expect(encodeCheckpoint(plain)).toBe(JSON.stringify(plain));
    expect(decodeCheckpoint(JSON.stringify(plain))).toEqual(plain);
  });
});
