import { advance, initialCheckpoint, type Json } from '../../../../src/services/workflow/engine';
import { CTX, Clock, T0, checkIds, noTask, runToEnd, single, types } from './helpers';

describe('Pass', () => {
  test('history: entered/exited with details, ids consecutive, then ExecutionSucceeded', async () => {
    const def = {
      StartAt: 'A',
      States: { A: { Type: 'Pass', Result: { v: 1 }, Next: 'B' }, B: { Type: 'Pass', End: true } },
    };
    const r = await runToEnd(def, { in: true });
    expect(r.status).toBe('SUCCEEDED');
    expect(r.output).toEqual({ v: 1 });
    expect(types(r.events)).toEqual(['PassStateEntered', 'PassStateExited', 'PassStateEntered', 'PassStateExited', 'ExecutionSucceeded']);
    checkIds(r.events);
    expect(r.events[0]).toEqual({
      id: 2,
      previousEventId: 0,
      timestamp: new Date(T0).toISOString(),
      type: 'PassStateEntered',
      stateEnteredEventDetails: { name: 'A', input: '{"in":true}', inputDetails: { truncated: false } },
    });
    expect(r.events[1].stateExitedEventDetails).toEqual({ name: 'A', output: '{"v":1}', outputDetails: { truncated: false } });
    expect(r.events[1].previousEventId).toBe(2);
    expect(r.events[2].previousEventId).toBe(3);
    expect(r.events[4]).toMatchObject({
      type: 'ExecutionSucceeded',
      previousEventId: 5,
      executionSucceededEventDetails: { output: '{"v":1}', outputDetails: { truncated: false } },
    });
    // one state per advance: the runner persists each transition
    expect(r.steps.map((s) => s.events.length)).toEqual([2, 3]);
    expect(r.steps[0].currentState).toBe('B');
  });
  test('a terminal checkpoint stays terminal, with no new events', async () => {
    const r = await runToEnd(single({ Type: 'Pass' }), 1);
    const last = r.steps[r.steps.length - 1];
    const again = await advance(single({ Type: 'Pass' }), last.checkpoint, { now: () => new Date(), runTask: noTask });
    expect(again).toMatchObject({ status: 'SUCCEEDED', events: [], output: '1', currentState: null });
  });
});

describe('Choice', () => {
  const choose = async (rule: Record<string, unknown>, input: Json) => {
    const def = {
      StartAt: 'C',
      States: {
        C: { Type: 'Choice', Choices: [{ ...rule, Next: 'Yes' }], Default: 'No' },
        Yes: { Type: 'Pass', Result: 'yes', End: true },
        No: { Type: 'Pass', Result: 'no', End: true },
      },
    };
    const r = await runToEnd(def, input);
    if (r.status !== 'SUCCEEDED') return `${r.error}`;
    return r.output;
  };
  const input = {
    s: 'banana',
    s2: 'cherry',
    n: 5,
    n2: 7,
    b: true,
    t: '2024-05-01T10:00:00Z',
    t2: '2024-05-01T12:00:00.5+01:00',
    nul: null,
    star: 'a*b',
    back: 'a\\b',
  };
  test.each([
    [{ Variable: '$.s', StringEquals: 'banana' }, 'yes'],
    [{ Variable: '$.s', StringEquals: 'apple' }, 'no'],
    [{ Variable: '$.n', StringEquals: '5' }, 'no'],
    [{ Variable: '$.s', StringEqualsPath: '$.s2' }, 'no'],
    [{ Variable: '$.s', StringLessThan: 'c' }, 'yes'],
    [{ Variable: '$.s', StringLessThanPath: '$.s2' }, 'yes'],
    [{ Variable: '$.s', StringGreaterThan: 'c' }, 'no'],
    [{ Variable: '$.s2', StringGreaterThanPath: '$.s' }, 'yes'],
    [{ Variable: '$.s', StringLessThanEquals: 'banana' }, 'yes'],
    [{ Variable: '$.s', StringLessThanEqualsPath: '$.s' }, 'yes'],
    [{ Variable: '$.s', StringGreaterThanEquals: 'banana' }, 'yes'],
    [{ Variable: '$.s', StringGreaterThanEqualsPath: '$.s2' }, 'no'],
    [{ Variable: '$.s', StringMatches: 'ba*a' }, 'yes'],
    [{ Variable: '$.s', StringMatches: '*nan*' }, 'yes'],
    [{ Variable: '$.s', StringMatches: 'b*x' }, 'no'],
    [{ Variable: '$.star', StringMatches: 'a\\*b' }, 'yes'],
    [{ Variable: '$.s', StringMatches: 'b\\*a' }, 'no'],
    [{ Variable: '$.back', StringMatches: 'a\\\\b' }, 'yes'],
    [{ Variable: '$.s', StringMatches: 'b.n*' }, 'no'],
    [{ Variable: '$.n', NumericEquals: 5 }, 'yes'],
    [{ Variable: '$.n', NumericEqualsPath: '$.n2' }, 'no'],
    [{ Variable: '$.n', NumericLessThan: 6 }, 'yes'],
    [{ Variable: '$.n', NumericLessThanPath: '$.n2' }, 'yes'],
    [{ Variable: '$.n', NumericGreaterThan: 5 }, 'no'],
    [{ Variable: '$.n2', NumericGreaterThanPath: '$.n' }, 'yes'],
    [{ Variable: '$.n', NumericLessThanEquals: 5 }, 'yes'],
    [{ Variable: '$.n2', NumericLessThanEqualsPath: '$.n' }, 'no'],
    [{ Variable: '$.n', NumericGreaterThanEquals: 5.5 }, 'no'],
    [{ Variable: '$.n2', NumericGreaterThanEqualsPath: '$.n' }, 'yes'],
    [{ Variable: '$.s', NumericEquals: 5 }, 'no'],
    [{ Variable: '$.b', BooleanEquals: true }, 'yes'],
    [{ Variable: '$.b', BooleanEqualsPath: '$.b' }, 'yes'],
    [{ Variable: '$.n', BooleanEquals: true }, 'no'],
    [{ Variable: '$.t', TimestampEquals: '2024-05-01T11:00:00+01:00' }, 'yes'],
    [{ Variable: '$.t', TimestampEqualsPath: '$.t2' }, 'no'],
    [{ Variable: '$.t', TimestampLessThan: '2024-05-01T10:00:01Z' }, 'yes'],
    [{ Variable: '$.t', TimestampLessThanPath: '$.t2' }, 'yes'],
    [{ Variable: '$.t', TimestampGreaterThan: '2024-05-01T10:00:01Z' }, 'no'],
    [{ Variable: '$.t2', TimestampGreaterThanPath: '$.t' }, 'yes'],
    [{ Variable: '$.t', TimestampLessThanEquals: '2024-05-01T10:00:00Z' }, 'yes'],
    [{ Variable: '$.t', TimestampLessThanEqualsPath: '$.t' }, 'yes'],
    [{ Variable: '$.t', TimestampGreaterThanEquals: '2024-05-01T10:00:00.001Z' }, 'no'],
    [{ Variable: '$.t2', TimestampGreaterThanEqualsPath: '$.t' }, 'yes'],
    [{ Variable: '$.s', TimestampEquals: '2024-05-01T10:00:00Z' }, 'no'],
    [{ Variable: '$.nul', IsNull: true }, 'yes'],
    [{ Variable: '$.n', IsNull: true }, 'no'],
    [{ Variable: '$.n', IsPresent: true }, 'yes'],
    [{ Variable: '$.zz', IsPresent: false }, 'yes'],
    [{ Variable: '$.zz', IsPresent: true }, 'no'],
    [{ Variable: '$.n', IsNumeric: true }, 'yes'],
    [{ Variable: '$.s', IsNumeric: false }, 'yes'],
    [{ Variable: '$.s', IsString: true }, 'yes'],
    [{ Variable: '$.b', IsBoolean: true }, 'yes'],
    [{ Variable: '$.s', IsBoolean: true }, 'no'],
    [{ Variable: '$.t', IsTimestamp: true }, 'yes'],
    [{ Variable: '$.s', IsTimestamp: true }, 'no'],
    [{ Variable: '$$.Execution.Name', StringEquals: 'job-1' }, 'yes'],
    [{ And: [{ Variable: '$.n', NumericEquals: 5 }, { Variable: '$.b', BooleanEquals: true }] }, 'yes'],
    [{ And: [{ Variable: '$.n', NumericEquals: 5 }, { Variable: '$.b', BooleanEquals: false }] }, 'no'],
    [{ Or: [{ Variable: '$.n', NumericEquals: 1 }, { Variable: '$.s', StringEquals: 'banana' }] }, 'yes'],
    [{ Or: [{ Variable: '$.n', NumericEquals: 1 }, { Variable: '$.s', StringEquals: 'x' }] }, 'no'],
    [{ Not: { Variable: '$.n', NumericEquals: 1 } }, 'yes'],
    [{ Not: { And: [{ Variable: '$.zz', IsPresent: false }, { Variable: '$.n', IsNumeric: true }] } }, 'no'],
    [{ Variable: '$.zz', StringEquals: 'x' }, 'States.Runtime'],
    [{ Variable: '$.s', StringEqualsPath: '$.zz' }, 'States.Runtime'],
  ])('%j → %s', async (rule, expected) => {
    expect(await choose(rule, input)).toBe(expected);
  });
  test('StringMatches with many stars on a long string stays fast', async () => {
    const t0 = Date.now();
    expect(await choose({ Variable: '$.s', StringMatches: '*a*a*a*a*a*a*a*a*a*a*a*a*b' }, { s: 'a'.repeat(100_000) })).toBe('no');
    expect(await choose({ Variable: '$.s', StringMatches: 'a*a*a*a*a*a*a*a*a*a*a*a*' }, { s: 'a'.repeat(100_000) })).toBe('yes');
    expect(Date.now() - t0).toBeLessThan(1_000);
  });
  test('first matching rule wins; InputPath/OutputPath apply; no match and no Default → States.NoChoiceMatched', async () => {
    const def = {
      StartAt: 'C',
      States: {
        C: {
          Type: 'Choice',
          InputPath: '$.d',
          OutputPath: '$.v',
          Choices: [
            { Variable: '$.v', NumericGreaterThan: 1, Next: 'A' },
            { Variable: '$.v', NumericGreaterThan: 0, Next: 'B' },
          ],
        },
        A: { Type: 'Pass', Parameters: { 'at.$': '$$.State.Name', 'in.$': '$' }, End: true },
        B: { Type: 'Pass', Parameters: { 'at.$': '$$.State.Name', 'in.$': '$' }, End: true },
      },
    };
    const a = await runToEnd(def, { d: { v: 5 } });
    expect(a.output).toEqual({ at: 'A', in: 5 });
    expect(types(a.events).slice(0, 2)).toEqual(['ChoiceStateEntered', 'ChoiceStateExited']);
    expect((await runToEnd(def, { d: { v: 1 } })).output).toEqual({ at: 'B', in: 1 });
    const none = await runToEnd(def, { d: { v: 0 } });
    expect(none.status).toBe('FAILED');
    expect(none.error).toBe('States.NoChoiceMatched');
    expect(types(none.events)).toEqual(['ChoiceStateEntered', 'ExecutionFailed']);
  });
});

describe('Wait', () => {
  const waitDef = (wait: Record<string, unknown>) => ({
    StartAt: 'W',
    States: { W: { Type: 'Wait', ...wait, Next: 'Done' }, Done: { Type: 'Pass', End: true } },
  });
  const firstWake = async (wait: Record<string, unknown>, input: Json) => {
    const r = await runToEnd(waitDef(wait), input);
    expect(r.status).toBe('SUCCEEDED');
    return r.steps[0].wakeAt;
  };
  test('Seconds, SecondsPath, Timestamp, TimestampPath → wakeAt', async () => {
    expect(await firstWake({ Seconds: 3600 }, {})).toBe(new Date(T0 + 3_600_000).toISOString());
    expect(await firstWake({ SecondsPath: '$.s' }, { s: 90 })).toBe(new Date(T0 + 90_000).toISOString());
    expect(await firstWake({ Timestamp: '2024-05-02T00:00:00Z' }, {})).toBe('2024-05-02T00:00:00.000Z');
    expect(await firstWake({ TimestampPath: '$.at' }, { at: '2024-05-01T12:30:00+02:00' })).toBe('2024-05-01T10:30:00.000Z');
    // a timestamp in the past: runnable right away
    expect(await firstWake({ Timestamp: '2020-01-01T00:00:00Z' }, {})).toBeNull();
  });
  test('advancing early changes nothing; at wakeAt it exits with its output', async () => {
    const clock = new Clock();
    const def = waitDef({ Seconds: 60, OutputPath: '$.keep' });
    let cp = initialCheckpoint(def, { keep: { k: 1 }, drop: 2 }, CTX, clock.now());
    const a = await advance(def, cp, { now: clock.now, runTask: noTask });
    expect(types(a.events)).toEqual(['WaitStateEntered']);
    expect(a.wakeAt).toBe(new Date(T0 + 60_000).toISOString());
    cp = a.checkpoint;
    clock.t += 59_000;
    const early = await advance(def, cp, { now: clock.now, runTask: noTask });
    expect(early.events).toEqual([]);
    expect(early.wakeAt).toBe(a.wakeAt);
    expect(early.currentState).toBe('W');
    clock.t += 1_000;
    const b = await advance(def, early.checkpoint, { now: clock.now, runTask: noTask });
    expect(types(b.events)).toEqual(['WaitStateExited']);
    expect(b.events[0].stateExitedEventDetails).toMatchObject({ name: 'W', output: '{"k":1}' });
    expect(b.wakeAt).toBeNull();
  });
  test('bad SecondsPath / TimestampPath values are States.Runtime', async () => {
    expect((await runToEnd(waitDef({ SecondsPath: '$.s' }), { s: 'soon' })).error).toBe('States.Runtime');
    expect((await runToEnd(waitDef({ SecondsPath: '$.s' }), { s: -1 })).error).toBe('States.Runtime');
    expect((await runToEnd(waitDef({ TimestampPath: '$.t' }), { t: 'tomorrow' })).error).toBe('States.Runtime');
    expect((await runToEnd(waitDef({ SecondsPath: '$.missing' }), {})).error).toBe('States.Runtime');
  });
});

describe('Succeed and Fail', () => {
  test('Succeed ends the job with its (filtered) input', async () => {
    const r = await runToEnd(single({ Type: 'Succeed', InputPath: '$.a', OutputPath: '$.b' }), { a: { b: [1] } });
    expect(r.output).toEqual([1]);
    expect(types(r.events)).toEqual(['SucceedStateEntered', 'SucceedStateExited', 'ExecutionSucceeded']);
  });
  test('Fail with Error/Cause, and with ErrorPath/CausePath', async () => {
    const a = await runToEnd({ StartAt: 'F', States: { F: { Type: 'Fail', Error: 'Oops', Cause: 'because' } } }, {});
    expect(a).toMatchObject({ status: 'FAILED', error: 'Oops', cause: 'because' });
    expect(types(a.events)).toEqual(['FailStateEntered', 'ExecutionFailed']);
    expect(a.events[1].executionFailedEventDetails).toEqual({ error: 'Oops', cause: 'because' });
    const b = await runToEnd({ StartAt: 'F', States: { F: { Type: 'Fail', ErrorPath: '$.e', CausePath: '$.c' } } }, { e: 'E1', c: 'C1' });
    expect(b).toMatchObject({ status: 'FAILED', error: 'E1', cause: 'C1' });
    const c = await runToEnd({ StartAt: 'F', States: { F: { Type: 'Fail', ErrorPath: '$.e' } } }, { e: 42 });
    expect(c.error).toBe('States.Runtime');
  });
});

describe('Odd definitions never throw: they fail the job with States.Runtime', () => {
  test.each([
    ['not JSON', '{nope'],
    ['no StartAt', JSON.stringify({ States: {} })],
    ['StartAt missing', JSON.stringify({ StartAt: 'X', States: { A: { Type: 'Pass', End: true } } })],
    ['unknown type', JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Magic', End: true } } })],
    ['Next to nowhere', JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass', Next: 'Z' } } })],
    ['neither Next nor End', JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass' } } })],
    ['Map without processor', JSON.stringify({ StartAt: 'M', States: { M: { Type: 'Map', End: true } } })],
    [
      'Map with an ItemReader',
      JSON.stringify({
        StartAt: 'M',
        States: { M: { Type: 'Map', ItemReader: { Resource: 'arn:aws:states:::s3:getObject' }, ItemProcessor: { StartAt: 'P', States: { P: { Type: 'Pass', End: true } } }, End: true } },
      }),
    ],
  ])('%s', async (_name, text) => {
    const r = await runToEnd(text, {});
    expect(r.status).toBe('FAILED');
    expect(r.error).toBe('States.Runtime');
    expect(r.events[r.events.length - 1].type).toBe('ExecutionFailed');
  });
  test('a corrupt checkpoint is reported, not thrown', async () => {
    const r = await advance(single({ Type: 'Pass' }), { v: 2 } as never, { now: () => new Date(), runTask: noTask });
    expect(r.status).toBe('FAILED');
    expect(r.error).toBe('States.Runtime');
  });
});

describe('history quota', () => {
  test('a job that would pass 25,000 history events fails with States.Runtime; the last event is its ExecutionFailed, id ≤ 25,000', async () => {
    // Two Pass states forever: two events per transition.
    const loop = { StartAt: 'A', States: { A: { Type: 'Pass', Next: 'B' }, B: { Type: 'Pass', Next: 'A' } } };
    const r = await runToEnd(loop, {}, noTask, { maxSteps: 20_000, roundTrip: false });
    expect([r.status, r.error, r.cause]).toEqual(['FAILED', 'States.Runtime', 'The execution reached the maximum number of history events (25000).']);
    const last = r.events[r.events.length - 1];
    expect(last.type).toBe('ExecutionFailed');
    expect(last.id).toBeLessThanOrEqual(25_000);
    expect(last.id).toBeGreaterThan(24_990);
    checkIds(r.events);
  });
  test('nested Maps: the step that would pass the quota stops there, it does not first start every iteration it could (40 × 8,000)', async () => {
    // 40 × 5 × 40 iterations (8,000 inner Maps, 24,000 events so far), each inner Map about to start 40 more.
    const level = (items: string, processor: object) => ({ StartAt: 'M', States: { M: { Type: 'Map', ItemsPath: `$$.Execution.Input.${items}`, ItemProcessor: processor, End: true } } });
    const def = level('a', level('b', level('c', level('d', single({ Type: 'Wait', Seconds: 3600 })))));
    const n = (k: number) => Array.from({ length: k }, (_, i) => i);
    const input = { a: n(40), b: n(5), c: n(40), d: n(40) };
    // The clock is read for every history event: the count is the step's work.
    let reads = 0;
    const clock = new Clock();
    const now = () => {
      reads++;
      return clock.now();
    };
    let cp = initialCheckpoint(def, input, CTX, clock.now());
    let r;
    for (let i = 0; i < 10; i++) {
      reads = 0;
      r = await advance(def, cp, { now, runTask: noTask });
      cp = r.checkpoint;
      if (r.status !== 'RUNNING') break;
    }
    expect([r!.status, r!.cause]).toEqual(['FAILED', 'The execution reached the maximum number of history events (25000).']);
    expect(r!.events[r!.events.length - 1].id).toBeLessThanOrEqual(25_000);
    // Without the bound: 320,000 iterations started (nearly 1,000,000 events computed, seconds of CPU, > 1 GB).
    expect(reads).toBeLessThan(5_000);
  });
  test('an execution without the quota (Express: maxHistoryEvents Infinity) goes past 25,000 events to its end', async () => {
    // 8,000 rounds of Pass + Choice: 32,000 events.
    const loop = {
      StartAt: 'Count',
      States: {
        Count: { Type: 'Pass', Parameters: { 'n.$': 'States.MathAdd($.n, 1)' }, Next: 'More' },
        More: { Type: 'Choice', Choices: [{ Variable: '$.n', NumericLessThan: 8_000, Next: 'Count' }], Default: 'Done' },
        Done: { Type: 'Succeed' },
      },
    };
    const clock = new Clock();
    const run = async (maxHistoryEvents?: number) => {
      let cp = initialCheckpoint(loop, { n: 0 }, CTX, clock.now());
      let events = 0;
      for (;;) {
        const r = await advance(loop, cp, { now: clock.now, runTask: noTask, maxHistoryEvents });
        events += r.events.length;
        cp = r.checkpoint;
        if (r.status !== 'RUNNING') return { r, events };
      }
    };
    const express = await run(Infinity);
    expect([express.r.status, express.r.output]).toEqual(['SUCCEEDED', '{"n":8000}']);
    expect(express.events).toBeGreaterThan(32_000);
    // The same flow as a Standard execution stops at the quota.
    const standard = await run();
    expect([standard.r.status, standard.r.cause]).toEqual(['FAILED', 'The execution reached the maximum number of history events (25000).']);
    expect(standard.events).toBeLessThanOrEqual(25_000);
  });
  test('without the quota one step still holds at most 25,000 events (nested Maps stop there, not at 320,000 iterations)', async () => {
    const level = (items: string, processor: object) => ({ StartAt: 'M', States: { M: { Type: 'Map', ItemsPath: `$$.Execution.Input.${items}`, ItemProcessor: processor, End: true } } });
    const def = level('a', level('b', level('c', level('d', single({ Type: 'Wait', Seconds: 3600 })))));
    const n = (k: number) => Array.from({ length: k }, (_, i) => i);
    let reads = 0;
    const clock = new Clock();
    const now = () => {
      reads++;
      return clock.now();
    };
    let cp = initialCheckpoint(def, { a: n(40), b: n(5), c: n(40), d: n(40) }, CTX, clock.now());
    let r;
    for (let i = 0; i < 10; i++) {
      reads = 0;
      r = await advance(def, cp, { now, runTask: noTask, maxHistoryEvents: Infinity });
      cp = r.checkpoint;
      if (r.status !== 'RUNNING') break;
    }
    expect([r!.status, r!.cause]).toEqual(['FAILED', 'One step of the execution would take more than 25000 history events.']);
    // About two clock reads per event of the step: 25,000 events' work, not the 1,000,000 of 320,000 iterations.
    expect(reads).toBeLessThan(60_000);
  });
});
