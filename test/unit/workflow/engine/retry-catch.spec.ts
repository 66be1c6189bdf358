import { TaskFailure, type Json, type RunTask, type TaskInvocation } from '../../../../src/services/workflow/engine';
import { Clock, T0, checkIds, runToEnd, types } from './helpers';

/** A task that fails with the given errors in turn, then returns its input; records when and how it was called. */
function script(errors: Array<string | null>) {
  const calls: Array<{ at: number; key: string }> = [];
  let clock: Clock | undefined;
  const run: RunTask = async (t: TaskInvocation) => {
    calls.push({ at: clock ? clock.s : -1, key: t.attemptKey });
    const e = errors[calls.length - 1];
    if (e) throw new TaskFailure(e, `attempt ${calls.length}`);
    return t.input;
  };
  return { calls, run, bind: (c: Clock) => (clock = c) };
}

const taskDef = (task: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  StartAt: 'T',
  States: {
    T: { Type: 'Task', Resource: 'echo', End: true, ...task },
    Caught: { Type: 'Pass', End: true },
    ...extra,
  },
});

describe('Retry', () => {
  test('counts, intervals and backoff: durable wakeAt values with an injected clock', async () => {
    const s = script(['Boom', 'Boom', 'Boom', 'Boom']);
    const clock = new Clock();
    s.bind(clock);
    const r = await runToEnd(taskDef({ Retry: [{ ErrorEquals: ['Boom'], IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 3 }] }), { x: 1 }, s.run, { clock });
    expect(r).toMatchObject({ status: 'FAILED', error: 'Boom', cause: 'attempt 4' });
    expect(s.calls.map((c) => c.at)).toEqual([0, 2, 8, 26]);
    expect(r.steps.map((st) => st.wakeAt).filter(Boolean)).toEqual(
      [2, 8, 26].map((sec) => new Date(T0 + sec * 1000).toISOString()),
    );
    expect(new Set(s.calls.map((c) => c.key)).size).toBe(4);
    expect(s.calls[0].key).toBe('arn:aws:states:eu-west-1:000000000000:execution:sm:job-1#T@1#0');
    expect(s.calls[3].key).toBe('arn:aws:states:eu-west-1:000000000000:execution:sm:job-1#T@1#3');
    expect(types(r.events)).toEqual([
      'TaskStateEntered',
      'TaskScheduled',
      ...Array(4)
        .fill(['TaskStarted', 'TaskFailed', 'TaskScheduled'])
        .flat()
        .slice(0, -1),
      'ExecutionFailed',
    ]);
    checkIds(r.events);
  });
  test('defaults: IntervalSeconds 1, MaxAttempts 3, BackoffRate 2', async () => {
    const s = script(['E', 'E', 'E', 'E']);
    const clock = new Clock();
    s.bind(clock);
    await runToEnd(taskDef({ Retry: [{ ErrorEquals: ['States.ALL'] }] }), {}, s.run, { clock });
    expect(s.calls.map((c) => c.at)).toEqual([0, 1, 3, 7]);
  });
  test('MaxDelaySeconds caps the backoff; MaxAttempts 0 never retries', async () => {
    const s = script(['E', 'E', 'E', null]);
    const clock = new Clock();
    s.bind(clock);
    const r = await runToEnd(
      taskDef({ Retry: [{ ErrorEquals: ['E'], IntervalSeconds: 10, BackoffRate: 10, MaxDelaySeconds: 50, MaxAttempts: 5 }] }),
      { ok: 1 },
      s.run,
      { clock },
    );
    expect(r.output).toEqual({ ok: 1 });
    expect(s.calls.map((c) => c.at)).toEqual([0, 10, 60, 110]);
    const z = script(['E', null]);
    const r0 = await runToEnd(taskDef({ Retry: [{ ErrorEquals: ['E'], MaxAttempts: 0 }] }), {}, z.run);
    expect(r0.error).toBe('E');
    expect(z.calls).toHaveLength(1);
  });
  test('JitterStrategy FULL: injected random scales the delay; the default is deterministic per attempt', async () => {
    const def = taskDef({ Retry: [{ ErrorEquals: ['E'], IntervalSeconds: 10, MaxAttempts: 2, JitterStrategy: 'FULL' }] });
    const s = script(['E', 'E', null]);
    const clock = new Clock();
    s.bind(clock);
    await runToEnd(def, {}, s.run, { clock, random: () => 0.25 });
    expect(s.calls.map((c) => c.at)).toEqual([0, 2.5, 7.5]);
    const waits = async () => {
      const t = script(['E', 'E', null]);
      const c = new Clock();
      t.bind(c);
      await runToEnd(def, {}, t.run, { clock: c });
      return t.calls.map((x) => x.at);
    };
    const a = await waits();
    expect(await waits()).toEqual(a);
    expect(a[1]).toBeGreaterThanOrEqual(0);
    expect(a[1]).toBeLessThanOrEqual(10);
    expect(a[2] - a[1]).toBeLessThanOrEqual(20);
  });
  test('the first matching retrier decides, each retrier has its own counter', async () => {
    const s = script(['A', 'B', 'A', 'B', 'A']);
    const r = await runToEnd(
      taskDef({
        Retry: [
          { ErrorEquals: ['A'], MaxAttempts: 2, IntervalSeconds: 1 },
          { ErrorEquals: ['A', 'B'], MaxAttempts: 5, IntervalSeconds: 1 },
        ],
        Catch: [{ ErrorEquals: ['A'], Next: 'Caught', ResultPath: '$.err' }],
      }),
      { v: 1 },
      s.run,
    );
    // A, A retried by #1 (2 attempts); B, B by #2; the third A exhausts #1 and goes to Catch (not to #2)
    expect(s.calls).toHaveLength(5);
    expect(r.output).toEqual({ v: 1, err: { Error: 'A', Cause: 'attempt 5' } });
  });
  test('Retry on a Parallel state re-runs its branches', async () => {
    let n = 0;
    const r = await runToEnd(
      {
        StartAt: 'P',
        States: {
          P: {
            Type: 'Parallel',
            End: true,
            Retry: [{ ErrorEquals: ['Flaky'], IntervalSeconds: 5 }],
            Branches: [
              { StartAt: 'X', States: { X: { Type: 'Task', Resource: 'flaky', End: true } } },
              { StartAt: 'Y', States: { Y: { Type: 'Pass', Result: 'y', End: true } } },
            ],
          },
        },
      },
      {},
      async () => {
        n += 1;
        if (n === 1) throw new TaskFailure('Flaky');
        return 'x';
      },
    );
    expect(r.output).toEqual(['x', 'y']);
    expect(types(r.events).filter((t) => t === 'ParallelStateStarted')).toHaveLength(2);
    expect(types(r.events)).toContain('ParallelStateFailed');
  });
});

describe('Catch', () => {
  test('ResultPath puts {Error, Cause} on the input and goes to Next; history shows TaskFailed, TaskStateExited', async () => {
    const r = await runToEnd(
      taskDef({ Catch: [{ ErrorEquals: ['Nope'], Next: 'Other' }, { ErrorEquals: ['Boom'], Next: 'Caught', ResultPath: '$.error' }] }),
      { keep: 1 },
      async () => {
        throw new TaskFailure('Boom', 'it broke');
      },
    );
    expect(r.status).toBe('SUCCEEDED');
    expect(r.output).toEqual({ keep: 1, error: { Error: 'Boom', Cause: 'it broke' } });
    expect(types(r.events)).toEqual([
      'TaskStateEntered',
      'TaskScheduled',
      'TaskStarted',
      'TaskFailed',
      'TaskStateExited',
      'PassStateEntered',
      'PassStateExited',
      'ExecutionSucceeded',
    ]);
    expect(r.events[3].taskFailedEventDetails).toEqual({ resourceType: 'task', resource: 'echo', error: 'Boom', cause: 'it broke' });
  });
  test('default ResultPath replaces the input with the error; a plain exception is States.TaskFailed', async () => {
    const r = await runToEnd(taskDef({ Catch: [{ ErrorEquals: ['States.TaskFailed'], Next: 'Caught' }] }), { keep: 1 }, async () => {
      throw new Error('disk full');
    });
    expect(r.output).toEqual({ Error: 'States.TaskFailed', Cause: 'disk full' });
  });
  test('States.TaskFailed does not match States.Timeout; States.ALL does', async () => {
    const clock = new Clock();
    const slow: RunTask = async () => {
      clock.t += 5_000;
      return 1;
    };
    const a = await runToEnd(taskDef({ TimeoutSeconds: 2, Catch: [{ ErrorEquals: ['States.TaskFailed'], Next: 'Caught' }] }), {}, slow, { clock });
    expect(a).toMatchObject({ status: 'FAILED', error: 'States.Timeout' });
    const c2 = new Clock();
    const slow2: RunTask = async () => {
      c2.t += 5_000;
      return 1;
    };
    const c = await runToEnd(taskDef({ TimeoutSeconds: 2, Catch: [{ ErrorEquals: ['States.ALL'], Next: 'Caught' }] }), {}, slow2, { clock: c2 });
    expect(c.output).toEqual({ Error: 'States.Timeout', Cause: 'The task did not finish within its TimeoutSeconds' });
  });
  test('States.ALL does not catch States.Runtime (a ResultSelector path that matches nothing)', async () => {
    const r = await runToEnd(
      taskDef({ ResultSelector: { 'x.$': '$.missing' }, Retry: [{ ErrorEquals: ['States.ALL'] }], Catch: [{ ErrorEquals: ['States.ALL'], Next: 'Caught' }] }),
      {},
      async () => ({ other: 1 }),
    );
    expect(r.status).toBe('FAILED');
    expect(r.error).toBe('States.Runtime');
    expect(r.steps).toHaveLength(2); // no retry
  });
  test('Catch on Map: an iteration failure is caught with its error', async () => {
    const r = await runToEnd(
      {
        StartAt: 'M',
        States: {
          M: {
            Type: 'Map',
            ItemsPath: '$.items',
            ItemProcessor: { StartAt: 'F', States: { F: { Type: 'Task', Resource: 'check', End: true } } },
            Catch: [{ ErrorEquals: ['Bad'], Next: 'Caught', ResultPath: '$.failure' }],
            End: true,
          },
          Caught: { Type: 'Pass', End: true },
        },
      },
      { items: [1, 2, 3] },
      async (t) => {
        if (t.input === 2) throw new TaskFailure('Bad', 'item 2');
        return t.input as Json;
      },
    );
    expect(r.output).toEqual({ items: [1, 2, 3], failure: { Error: 'Bad', Cause: 'item 2' } });
    expect(types(r.events)).toEqual(expect.arrayContaining(['MapIterationFailed', 'MapStateFailed', 'MapStateExited']));
  });
});
