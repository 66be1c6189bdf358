import { advance, initialCheckpoint, type Checkpoint, type RunTask, type TaskInvocation } from '../../../../src/services/workflow/engine';
import { CTX, Clock, T0, noTask, runToEnd, types } from './helpers';

const iso = (sec: number) => new Date(T0 + sec * 1000).toISOString();
const roundTrip = (cp: Checkpoint) => JSON.parse(JSON.stringify(cp)) as Checkpoint;

describe('Task timeouts', () => {
  const def = {
    StartAt: 'T',
    States: { T: { Type: 'Task', Resource: 'slow', TimeoutSeconds: 10, End: true } },
  };
  test('the deadline is absolute and stored: after a restart the task sees the same deadline', async () => {
    const clock = new Clock();
    const s = await advance(def, initialCheckpoint(def, {}, CTX, clock.now()), { now: clock.now, runTask: noTask });
    expect(types(s.events)).toEqual(['TaskStateEntered', 'TaskScheduled']);
    expect(s.events[1].taskScheduledEventDetails).toMatchObject({ timeoutInSeconds: 10, parameters: '{}' });
    clock.t += 4_000; // the process was down for 4 s
    let seen: TaskInvocation | undefined;
    const r = await advance(def, roundTrip(s.checkpoint), {
      now: clock.now,
      runTask: async (t) => {
        seen = t;
        return 'done';
      },
    });
    expect(seen?.deadline).toBe(iso(10));
    expect(r.status).toBe('SUCCEEDED');
  });
  test('resumed after the deadline: TaskTimedOut without running the task', async () => {
    const clock = new Clock();
    const s = await advance(def, initialCheckpoint(def, {}, CTX, clock.now()), { now: clock.now, runTask: noTask });
    clock.t += 11_000;
    const ran = jest.fn();
    const r = await advance(def, roundTrip(s.checkpoint), { now: clock.now, runTask: ran });
    expect(ran).not.toHaveBeenCalled();
    expect(types(r.events)).toEqual(['TaskTimedOut', 'ExecutionFailed']);
    expect(r).toMatchObject({ status: 'FAILED', error: 'States.Timeout' });
    expect(r.events[0].taskTimedOutEventDetails).toMatchObject({ error: 'States.Timeout', resource: 'slow' });
  });
  test('a running task past its deadline has its signal aborted and fails with States.Timeout', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    try {
      const oneSec = { StartAt: 'T', States: { T: { Type: 'Task', Resource: 'hang', TimeoutSeconds: 1, End: true } } };
      let aborted = false;
      let started!: () => void;
      const running = new Promise<void>((r) => (started = r));
      const hang: RunTask = (t) =>
        new Promise((_resolve, reject) => {
          started();
          t.signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
        });
      const done = runToEnd(oneSec, {}, hang, { clock: new Clock(Date.now()) });
      await running;
      await jest.advanceTimersByTimeAsync(999);
      expect(aborted).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      const r = await done;
      expect(aborted).toBe(true);
      expect(r).toMatchObject({ status: 'FAILED', error: 'States.Timeout' });
      expect(types(r.events)).toEqual(['TaskStateEntered', 'TaskScheduled', 'TaskStarted', 'TaskTimedOut', 'ExecutionFailed']);
    } finally {
      jest.useRealTimers();
    }
  });
  test('TimeoutSecondsPath reads the timeout from the input; a bad value is States.Runtime', async () => {
    const d = { StartAt: 'T', States: { T: { Type: 'Task', Resource: 'x', TimeoutSecondsPath: '$.t', End: true } } };
    let deadline: string | null = null;
    const r = await runToEnd(d, { t: 30 }, async (t) => {
      deadline = t.deadline;
      return 1;
    });
    expect(deadline).toBe(iso(30));
    expect(r.status).toBe('SUCCEEDED');
    expect((await runToEnd(d, { t: 'x' })).error).toBe('States.Runtime');
  });
  test('Timeout is retried like other errors', async () => {
    const clock = new Clock();
    let n = 0;
    const r = await runToEnd(
      { StartAt: 'T', States: { T: { Type: 'Task', Resource: 'x', TimeoutSeconds: 5, Retry: [{ ErrorEquals: ['States.Timeout'], IntervalSeconds: 1 }], End: true } } },
      {},
      async () => {
        n += 1;
        if (n === 1) clock.t += 6_000; // the first attempt takes too long
        return n;
      },
      { clock },
    );
    expect(r.output).toBe(2);
    expect(types(r.events)).toContain('TaskTimedOut');
  });
});

describe('Job timeout', () => {
  test('wakeAt never lies beyond the job deadline; at the deadline the job is TIMED_OUT', async () => {
    const def = {
      StartAt: 'W',
      TimeoutSeconds: 30,
      States: { W: { Type: 'Wait', Seconds: 3600, Next: 'P' }, P: { Type: 'Pass', End: true } },
    };
    const clock = new Clock();
    const cp0 = initialCheckpoint(def, {}, CTX, clock.now());
    const a = await advance(def, cp0, { now: clock.now, runTask: noTask });
    expect(a.wakeAt).toBe(iso(30));
    clock.t += 29_000;
    const b = await advance(def, roundTrip(a.checkpoint), { now: clock.now, runTask: noTask });
    expect(b.status).toBe('RUNNING');
    expect(b.events).toEqual([]);
    clock.t += 1_000;
    const c = await advance(def, roundTrip(b.checkpoint), { now: clock.now, runTask: noTask });
    expect(c).toMatchObject({ status: 'TIMED_OUT', error: 'States.Timeout' });
    expect(types(c.events)).toEqual(['ExecutionTimedOut']);
    expect(c.events[0]).toMatchObject({ id: 3, previousEventId: 2, executionTimedOutEventDetails: { error: 'States.Timeout' } });
  });
  test('a task still running at the job deadline is aborted and the job times out', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    try {
      const def = { StartAt: 'T', TimeoutSeconds: 1, States: { T: { Type: 'Task', Resource: 'hang', End: true } } };
      let signal: AbortSignal | undefined;
      let deadline: string | null = null;
      let started!: () => void;
      const running = new Promise<void>((r) => (started = r));
      const clock = new Clock(Date.now());
      const done = runToEnd(def, {}, (t) => {
        signal = t.signal;
        deadline = t.deadline;
        started();
        return new Promise(() => undefined);
      }, { clock });
      await running;
      await jest.advanceTimersByTimeAsync(999);
      expect(signal?.aborted).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      const r = await done;
      expect(signal?.aborted).toBe(true);
      expect(deadline).toBe(new Date(clock.t + 1000).toISOString());
      expect(r.status).toBe('TIMED_OUT');
      expect(types(r.events)).toEqual(['TaskStateEntered', 'TaskScheduled', 'TaskStarted', 'ExecutionTimedOut']);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('Stopping', () => {
  test('opts.signal aborts the running task; the thread stays scheduled (the runner records the stop)', async () => {
    const def = { StartAt: 'T', States: { T: { Type: 'Task', Resource: 'hang', End: true } } };
    const clock = new Clock();
    const s = await advance(def, initialCheckpoint(def, {}, CTX, clock.now()), { now: clock.now, runTask: noTask });
    const stop = new AbortController();
    let taskSignal: AbortSignal | undefined;
    const p = advance(def, s.checkpoint, {
      now: clock.now,
      signal: stop.signal,
      runTask: (t) => {
        taskSignal = t.signal;
        return new Promise(() => undefined);
      },
    });
    await new Promise((r) => setTimeout(r, 10));
    stop.abort();
    const r = await p;
    expect(taskSignal?.aborted).toBe(true);
    expect(r.status).toBe('RUNNING');
    expect(types(r.events)).toEqual(['TaskStarted']);
  });
});
