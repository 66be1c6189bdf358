import { advance, initialCheckpoint, TaskFailure, usesDistributedMap, type Advance, type HistoryEvent, type Json, type RunTask } from '../../../../src/services/workflow/engine';
import { checkIds, Clock, CTX, echo, noTask, runToEnd, T0, types } from './helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A task that counts calls in flight; resolves after a few real milliseconds. */
function inFlightCounter() {
  let now = 0;
  const stats = { max: 0, calls: 0 };
  const run: RunTask = async (t) => {
    now += 1;
    stats.calls += 1;
    stats.max = Math.max(stats.max, now);
    await sleep(5);
    now -= 1;
    return t.input;
  };
  return { run, stats };
}

const mapDef = (map: Record<string, unknown>) => ({
  StartAt: 'M',
  States: {
    M: {
      Type: 'Map',
      ItemsPath: '$.items',
      ItemProcessor: { StartAt: 'Work', States: { Work: { Type: 'Task', Resource: 'work', End: true } } },
      End: true,
      ...map,
    },
  },
});

describe('Map', () => {
  test('ItemSelector sees $ (the Map input) and $$.Map.Item.Index/Value; ResultSelector and ResultPath apply', async () => {
    const r = await runToEnd(
      mapDef({
        ItemSelector: { 'i.$': '$$.Map.Item.Index', 'v.$': '$$.Map.Item.Value', 'tag.$': '$.tag' },
        ResultSelector: { 'all.$': '$', 'n.$': 'States.ArrayLength($)' },
        ResultPath: '$.out',
      }),
      { tag: 't', items: ['a', 'b', 'c'] },
      echo,
    );
    expect(r.output).toEqual({
      tag: 't',
      items: ['a', 'b', 'c'],
      out: {
        all: [
          { i: 0, v: 'a', tag: 't' },
          { i: 1, v: 'b', tag: 't' },
          { i: 2, v: 'c', tag: 't' },
        ],
        n: 3,
      },
    });
  });
  test('legacy Iterator and Parameters', async () => {
    const r = await runToEnd(
      {
        StartAt: 'M',
        States: {
          M: {
            Type: 'Map',
            Parameters: { 'x.$': '$$.Map.Item.Value' },
            Iterator: { StartAt: 'P', States: { P: { Type: 'Pass', InputPath: '$.x', End: true } } },
            End: true,
          },
        },
      },
      [1, 2],
    );
    expect(r.output).toEqual([1, 2]);
  });
  test('MaxConcurrency is observed by a task counting calls in flight; 0 = unbounded', async () => {
    const limited = inFlightCounter();
    const r = await runToEnd(mapDef({ MaxConcurrency: 2 }), { items: [1, 2, 3, 4, 5, 6, 7] }, limited.run);
    expect(r.output).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(limited.stats).toEqual({ max: 2, calls: 7 });
    const free = inFlightCounter();
    await runToEnd(mapDef({ MaxConcurrency: 0 }), { items: [1, 2, 3, 4, 5, 6, 7] }, free.run);
    expect(free.stats).toEqual({ max: 7, calls: 7 });
    const fromPath = inFlightCounter();
    await runToEnd(mapDef({ MaxConcurrencyPath: '$.mc' }), { mc: 3, items: [1, 2, 3, 4, 5, 6, 7] }, fromPath.run);
    expect(fromPath.stats.max).toBe(3);
  });
  test('MaxConcurrency 0 or above 40 runs at most 40 iterations at once (Step Functions\' inline Map), all of them in the end', async () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    for (const mc of [0, 1000]) {
      const c = inFlightCounter();
      const r = await runToEnd(mapDef({ MaxConcurrency: mc }), { items }, c.run);
      expect([mc, r.output, c.stats]).toEqual([mc, items, { max: 40, calls: 100 }]);
    }
  });
  test('40 iterations waiting with more items to go (MaxConcurrency 0 or above 40): the job sleeps until the first wake, it does not spin', async () => {
    const items = Array.from({ length: 41 }, (_, i) => i);
    for (const mc of [0, 1000]) {
      const def = {
        StartAt: 'M',
        States: { M: { Type: 'Map', MaxConcurrency: mc, ItemProcessor: { StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 3600, End: true } } }, End: true } },
      };
      const clock = new Clock();
      let cp = initialCheckpoint(def, items, CTX, clock.now());
      let last: Advance | undefined;
      for (let i = 0; i < 5 && last?.wakeAt == null; i++) {
        last = await advance(def, cp, { now: clock.now, runTask: noTask });
        cp = last.checkpoint;
      }
      // Every iteration that may run is in its Wait: nothing can move for an hour (wakeAt null would have the
      // runner write step after step, with no event, until then).
      expect([mc, last!.status, last!.wakeAt]).toEqual([mc, 'RUNNING', new Date(T0 + 3_600_000).toISOString()]);
      const ended = await runToEnd(def, items);
      expect([ended.status, ended.output]).toEqual(['SUCCEEDED', items]);
    }
  });
  test('history: started with length, iterations with name/index, previous ids point at the iteration start', async () => {
    const r = await runToEnd(
      {
        StartAt: 'M',
        States: {
          M: { Type: 'Map', MaxConcurrency: 1, ItemProcessor: { StartAt: 'P', States: { P: { Type: 'Pass', End: true } } }, End: true },
        },
      },
      ['x', 'y'],
    );
    checkIds(r.events);
    expect(types(r.events)).toEqual([
      'MapStateEntered',
      'MapStateStarted',
      'MapIterationStarted',
      'PassStateEntered',
      'PassStateExited',
      'MapIterationSucceeded',
      'MapIterationStarted',
      'PassStateEntered',
      'PassStateExited',
      'MapIterationSucceeded',
      'MapStateSucceeded',
      'MapStateExited',
      'ExecutionSucceeded',
    ]);
    const byType = (t: string) => r.events.filter((e) => e.type === t);
    const started = byType('MapStateStarted')[0];
    expect(started.mapStateStartedEventDetails).toEqual({ length: 2 });
    const iters = byType('MapIterationStarted');
    expect(iters.map((e) => e.mapIterationStartedEventDetails)).toEqual([
      { name: 'M', index: 0 },
      { name: 'M', index: 1 },
    ]);
    expect(iters.every((e) => e.previousEventId === started.id)).toBe(true);
    const entered = byType('PassStateEntered');
    expect(entered.map((e) => e.previousEventId)).toEqual(iters.map((e) => e.id));
    expect(byType('MapIterationSucceeded')[1].mapIterationSucceededEventDetails).toEqual({ name: 'M', index: 1 });
  });
  test('an empty array finishes at once; ItemsPath that is not an array is States.Runtime', async () => {
    const e = await runToEnd(mapDef({}), { items: [] });
    expect(e.output).toEqual([]);
    expect(types(e.events)).toEqual(['MapStateEntered', 'MapStateStarted', 'MapStateSucceeded', 'MapStateExited', 'ExecutionSucceeded']);
    const bad = await runToEnd(mapDef({}), { items: { a: 1 } });
    expect(bad.error).toBe('States.Runtime');
  });
  test('one failing iteration fails the Map and aborts the running ones', async () => {
    const signals: AbortSignal[] = [];
    const r = await runToEnd(mapDef({}), { items: [1, 2, 3] }, (t) => {
      if (t.input === 2) return sleep(5).then(() => Promise.reject(new TaskFailure('Bad', 'two')));
      signals.push(t.signal);
      return new Promise(() => undefined); // hangs until aborted
    });
    expect(r).toMatchObject({ status: 'FAILED', error: 'Bad', cause: 'two' });
    expect(signals).toHaveLength(2);
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(types(r.events).filter((t) => t === 'MapIterationAborted')).toHaveLength(2);
    expect(types(r.events).slice(-2)).toEqual(['MapStateFailed', 'ExecutionFailed']);
  });
});

describe('Parallel', () => {
  const par = {
    StartAt: 'P',
    States: {
      P: {
        Type: 'Parallel',
        Parameters: { 'v.$': '$.v' },
        ResultSelector: { 'first.$': '$[0]', 'second.$': '$[1].r' },
        ResultPath: '$.res',
        Branches: [
          { StartAt: 'A', States: { A: { Type: 'Task', Resource: 'a', End: true } } },
          {
            StartAt: 'B1',
            States: { B1: { Type: 'Pass', Result: 'b', ResultPath: '$.r', Next: 'B2' }, B2: { Type: 'Task', Resource: 'b', End: true } },
          },
        ],
        End: true,
      },
    },
  };
  test('branches get the effective input, run concurrently, and give an array in branch order', async () => {
    const c = inFlightCounter();
    const r = await runToEnd(par, { v: 1, other: true }, c.run);
    expect(r.output).toEqual({ v: 1, other: true, res: { first: { v: 1 }, second: 'b' } });
    expect(c.stats.calls).toBe(2);
    checkIds(r.events);
    const t = types(r.events);
    expect(t.slice(0, 2)).toEqual(['ParallelStateEntered', 'ParallelStateStarted']);
    expect(t.slice(-3)).toEqual(['ParallelStateSucceeded', 'ParallelStateExited', 'ExecutionSucceeded']);
    const started = r.events[1];
    const firstOfBranches = r.events.filter((e: HistoryEvent) => e.previousEventId === started.id).map((e) => e.type);
    expect(firstOfBranches).toEqual(['TaskStateEntered', 'PassStateEntered']);
  });
  test('both branch tasks are in flight together', async () => {
    const c = inFlightCounter();
    await runToEnd(
      {
        StartAt: 'P',
        States: {
          P: {
            Type: 'Parallel',
            End: true,
            Branches: [0, 1, 2].map((i) => ({ StartAt: `T${i}`, States: { [`T${i}`]: { Type: 'Task', Resource: 'x', End: true } } })),
          },
        },
      },
      {},
      c.run,
    );
    expect(c.stats).toEqual({ max: 3, calls: 3 });
  });
  test('a failing branch fails the state and aborts the other branches', async () => {
    let other: AbortSignal | undefined;
    const failing = structuredClone(par) as typeof par;
    failing.States.P.Branches[1] = { StartAt: 'B2', States: { B2: { Type: 'Task', Resource: 'b', End: true } } } as never;
    const r = await runToEnd(failing, { v: 1 }, (t) => {
      if (t.resource === 'a') {
        other = t.signal;
        return new Promise(() => undefined);
      }
      return Promise.reject(new TaskFailure('BranchBroke', 'b failed'));
    });
    expect(other?.aborted).toBe(true);
    expect(r).toMatchObject({ status: 'FAILED', error: 'BranchBroke', cause: 'b failed' });
    expect(types(r.events).slice(-2)).toEqual(['ParallelStateFailed', 'ExecutionFailed']);
  });
  test('a Map inside a Parallel inside a Map', async () => {
    const inner = { StartAt: 'Dbl', States: { Dbl: { Type: 'Pass', Parameters: { 'v.$': 'States.MathAdd($, $)' }, OutputPath: '$.v', End: true } } };
    const r = await runToEnd(
      {
        StartAt: 'Outer',
        States: {
          Outer: {
            Type: 'Map',
            End: true,
            ItemProcessor: {
              StartAt: 'P',
              States: {
                P: {
                  Type: 'Parallel',
                  End: true,
                  Branches: [
                    { StartAt: 'In', States: { In: { Type: 'Map', ItemProcessor: inner, End: true } } },
                    { StartAt: 'Len', States: { Len: { Type: 'Pass', Parameters: { 'n.$': 'States.ArrayLength($)' }, End: true } } },
                  ],
                },
              },
            },
          },
        },
      },
      [[1, 2], [3]] as Json,
    );
    expect(r.output).toEqual([
      [[2, 4], { n: 2 }],
      [[6], { n: 1 }],
    ]);
    checkIds(r.events);
  });
});

describe('usesDistributedMap (whether a job of the definition may have Map Runs to abort at its end)', () => {
  const dist = { Type: 'Map', ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' }, StartAt: 'W', States: { W: { Type: 'Pass', End: true } } }, End: true };
  const inline = (processor: object) => ({ Type: 'Map', ItemProcessor: processor, End: true });
  test.each([
    ['Pass states', { StartAt: 'A', States: { A: { Type: 'Pass', End: true } } }, false],
    ['an inline Map', { StartAt: 'M', States: { M: inline({ StartAt: 'W', States: { W: { Type: 'Pass', End: true } } }) } }, false],
    ['a Distributed Map', { StartAt: 'M', States: { M: dist } }, true],
    ['one in a Parallel branch', { StartAt: 'P', States: { P: { Type: 'Parallel', Branches: [{ StartAt: 'A', States: { A: { Type: 'Pass', End: true } } }, { StartAt: 'M', States: { M: dist } }], End: true } } }, true],
    ['one in an inline Map', { StartAt: 'M', States: { M: inline({ StartAt: 'D', States: { D: dist } }) } }, true],
  ])('%s: %s', (_, definition, expected) => {
    expect(usesDistributedMap(JSON.stringify(definition))).toBe(expected);
  });
  test('an escaped "DISTRIBUTED" in the text is still a Distributed Map; text that is not JSON has none', () => {
    const text = JSON.stringify({ StartAt: 'M', States: { M: dist } }).replace('"DISTRIBUTED"', '"\\u0044ISTRIBUTED"');
    expect(usesDistributedMap(text)).toBe(true);
    expect(usesDistributedMap('{')).toBe(false);
  });
});
