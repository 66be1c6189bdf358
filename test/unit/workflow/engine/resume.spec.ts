import {
  TaskFailure,
  advance,
  initialCheckpoint,
  type Checkpoint,
  type HistoryEvent,
  type Json,
  type RunTask,
} from '../../../../src/services/workflow/engine';
import { CTX, Clock, checkIds, runToEnd } from './helpers';

/** A job with everything that carries state across advances: a Choice loop, Wait, Retry backoff, Map, Parallel. */
const definition = JSON.stringify({
  StartAt: 'Init',
  TimeoutSeconds: 86_400,
  States: {
    Init: { Type: 'Pass', Parameters: { 'items.$': '$.items', n: 0 }, Next: 'Inc' },
    Inc: { Type: 'Task', Resource: 'inc', ResultPath: '$.n', Next: 'Enough?' },
    'Enough?': { Type: 'Choice', Choices: [{ Variable: '$.n', NumericGreaterThanEquals: 3, Next: 'Fan' }], Default: 'Nap' },
    Nap: { Type: 'Wait', Seconds: 10, Next: 'Inc' },
    Fan: {
      Type: 'Map',
      ItemsPath: '$.items',
      MaxConcurrency: 2,
      ItemSelector: { 'v.$': '$$.Map.Item.Value', 'i.$': '$$.Map.Item.Index' },
      ItemProcessor: {
        StartAt: 'Square',
        States: {
          Square: {
            Type: 'Task',
            Resource: 'flaky.square',
            Retry: [{ ErrorEquals: ['Flaky'], IntervalSeconds: 3, BackoffRate: 2 }],
            End: true,
          },
        },
      },
      ResultPath: '$.squares',
      Next: 'Both',
    },
    Both: {
      Type: 'Parallel',
      ResultPath: '$.both',
      Branches: [
        { StartAt: 'Sum', States: { Sum: { Type: 'Task', Resource: 'sum', InputPath: '$.squares', End: true } } },
        {
          StartAt: 'Hash',
          States: {
            Hash: { Type: 'Pass', Parameters: { 'h.$': "States.Hash(States.JsonToString($.squares), 'SHA-256')" }, Next: 'Short' },
            Short: { Type: 'Wait', Seconds: 5, End: true },
          },
        },
      ],
      Next: 'Done',
    },
    Done: { Type: 'Succeed' },
  },
});

/** Tasks that dedupe by attemptKey (as real tasks must): effects are counted once per key. */
function tasks() {
  const effects = new Map<string, Json>();
  const calls: string[] = [];
  const run: RunTask = async (t) => {
    calls.push(t.attemptKey);
    await new Promise((r) => setImmediate(r));
    // the first attempt of every square fails: Retry must carry its counter and backoff through the checkpoint
    if (t.resource === 'flaky.square' && t.attemptKey.endsWith('#0')) throw new TaskFailure('Flaky', t.attemptKey);
    if (effects.has(t.attemptKey)) return effects.get(t.attemptKey)!;
    const input = t.input as Record<string, Json>;
    let out: Json;
    if (t.resource === 'inc') out = (input.n as number) + 1;
    else if (t.resource === 'flaky.square') out = ((input.v as number) ** 2) * 10 + (input.i as number);
    else out = (t.input as number[]).reduce((a, b) => a + b, 0);
    effects.set(t.attemptKey, out);
    return out;
  };
  return { run, effects, calls };
}

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const strip = (events: HistoryEvent[]) => events.map(({ timestamp: _t, ...rest }) => rest);

describe('resume after a crash', () => {
  const input = { items: [1, 2, 3, 4, 5] };

  test('uninterrupted run (the reference)', async () => {
    const t = tasks();
    const r = await runToEnd(definition, input, t.run);
    expect(r.status).toBe('SUCCEEDED');
    expect(r.output).toMatchObject({ n: 3, squares: [10, 41, 92, 163, 254] });
    expect((r.output as { both: Json[] }).both[0]).toBe(560);
    checkIds(r.events);
  });

  test.each([1, 2, 3, 4, 5, 6, 7, 8])('JSON round trips + replayed advances at random points (seed %i) give the same job', async (seed) => {
    const ref = tasks();
    const reference = await runToEnd(definition, input, ref.run);

    const random = prng(seed);
    const t = tasks();
    const clock = new Clock();
    let stored = JSON.stringify(initialCheckpoint(definition, input, CTX, clock.now()));
    const persisted: HistoryEvent[] = [];
    let replays = 0;
    let result: { status: string; output?: string } | undefined;
    for (let i = 0; i < 1000 && !result; i++) {
      if (random() < 0.35) {
        // crash: this advance runs (tasks included) but its result is never stored
        const before = t.calls.length;
        await advance(definition, JSON.parse(stored) as Checkpoint, { now: clock.now, runTask: t.run });
        const lostKeys = t.calls.slice(before);
        const again = t.calls.length;
        const r = await advance(definition, JSON.parse(stored) as Checkpoint, { now: clock.now, runTask: t.run });
        // the replay calls the same tasks with the same attempt keys
        expect(t.calls.slice(again).sort()).toEqual(lostKeys.sort());
        replays += 1;
        stored = JSON.stringify(r.checkpoint);
        persisted.push(...r.events);
        if (r.status !== 'RUNNING') result = r;
        else if (r.wakeAt) clock.t = Math.max(clock.t, Date.parse(r.wakeAt));
        continue;
      }
      const r = await advance(definition, JSON.parse(stored) as Checkpoint, { now: clock.now, runTask: t.run });
      stored = JSON.stringify(r.checkpoint);
      persisted.push(...r.events);
      if (r.status !== 'RUNNING') result = r;
      else if (r.wakeAt) clock.t = Math.max(clock.t, Date.parse(r.wakeAt));
    }
    expect(replays).toBeGreaterThan(0);
    expect(result?.status).toBe('SUCCEEDED');
    expect(JSON.parse(result!.output!)).toEqual(reference.output);
    // nothing lost, nothing recorded twice: the stored history is the uninterrupted one
    expect(strip(persisted)).toEqual(strip(reference.events));
    // every effect happened once per attempt key, as in the uninterrupted run
    expect([...t.effects.keys()].sort()).toEqual([...ref.effects.keys()].sort());
    // the checkpoint stays small (no definition, no history inside)
    expect(stored.length).toBeLessThan(2_000);
  });

  test('advance never modifies the checkpoint object it is given (replaying from the same object is safe)', async () => {
    const t = tasks();
    const clock = new Clock();
    let cp = initialCheckpoint(definition, input, CTX, clock.now());
    for (let i = 0; i < 1000; i++) {
      const before = JSON.stringify(cp);
      const r = await advance(definition, cp, { now: clock.now, runTask: t.run });
      expect(JSON.stringify(cp)).toBe(before);
      if (r.status !== 'RUNNING') {
        expect(r.status).toBe('SUCCEEDED');
        return;
      }
      if (r.wakeAt) clock.t = Math.max(clock.t, Date.parse(r.wakeAt));
      cp = r.checkpoint;
    }
    throw new Error('did not finish');
  });

  test('a crash after "scheduled": the task runs again with the same attemptKey', async () => {
    const def = { StartAt: 'T', States: { T: { Type: 'Task', Resource: 'x', End: true } } };
    const clock = new Clock();
    const scheduled = await advance(def, initialCheckpoint(def, {}, CTX, clock.now()), { now: clock.now, runTask: async () => 0 });
    const stored = JSON.stringify(scheduled.checkpoint);
    const keys: string[] = [];
    const run: RunTask = async (t) => {
      keys.push(t.attemptKey);
      return keys.length;
    };
    const first = await advance(def, JSON.parse(stored) as Checkpoint, { now: clock.now, runTask: run });
    const second = await advance(def, JSON.parse(stored) as Checkpoint, { now: clock.now, runTask: run });
    expect(keys[0]).toBe(keys[1]);
    expect(first.events.map((e) => e.id)).toEqual(second.events.map((e) => e.id));
    // advance never mutates the checkpoint it was given
    expect(JSON.stringify(scheduled.checkpoint)).toBe(stored);
  });
});
