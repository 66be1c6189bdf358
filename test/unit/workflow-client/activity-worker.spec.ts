/**
 * client.pollActivity against a real local HTTP server that speaks the AWS JSON 1.0 protocol of Step Functions for
 * GetActivityTask (a long poll that parks until a task is queued), SendTaskSuccess, SendTaskFailure and
 * SendTaskHeartbeat, with Step Functions' error answers (TaskDoesNotExist, TaskTimedOut, ActivityDoesNotExist). It
 * is the protocol peer the worker talks to, written here; the gateway's own activities have their e2e test.
 */
import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WorkflowClient, WorkflowServiceException } from '../../../packages/workflow-client/src';
import { failureOf } from '../../../packages/workflow-client/src/activity-worker';
import { InvalidArgumentError } from '../../../packages/workflow-client/src/errors';

const ACTIVITY = 'arn:aws:states:us-east-1:000000000000:activity:work';

interface Task {
  token: string;
  input: string;
  state: 'queued' | 'handed' | 'succeeded' | 'failed' | 'timed-out';
  worker?: string;
  heartbeats: number;
  /** Heartbeats that arrived after the task was reported (must stay 0). */
  lateHeartbeats: number;
  output?: string;
  error?: string;
  cause?: string;
}

/** The protocol peer: an in-memory activity with a queue, long polls, tokens and Step Functions' error answers. */
class ActivityPeer {
  server!: Server;
  url = '';
  tasks: Task[] = [];
  parked: Array<{ res: ServerResponse; closed: boolean; worker: string }> = [];
  /** Polls whose connection the worker closed before an answer. */
  cancelledPolls = 0;
  polls = 0;
  /** Answers the next polls with these HTTP errors first. */
  failNextPolls: Array<{ status: number; type: string }> = [];
  knownActivities = new Set([ACTIVITY]);
  private waiters: Array<() => void> = [];

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async close(): Promise<void> {
    for (const p of this.parked) p.res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  queue(input: unknown): Task {
    const task: Task = { token: randomBytes(48).toString('base64url'), input: JSON.stringify(input), state: 'queued', heartbeats: 0, lateHeartbeats: 0 };
    this.tasks.push(task);
    this.dispatch();
    return task;
  }
  byToken(token: string): Task | undefined {
    return this.tasks.find((t) => t.token === token);
  }

  /** Resolves when `check` holds (re-checked after every answer of the peer, and every few ms for the worker's side). */
  until(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve) => {
      const w = () => {
        if (!check()) return;
        clearInterval(timer);
        this.waiters = this.waiters.filter((x) => x !== w);
        resolve();
      };
      const timer = setInterval(w, 5);
      this.waiters.push(w);
    });
  }
  private changed(): void {
    for (const w of [...this.waiters]) w();
  }

  private dispatch(): void {
    for (;;) {
      const task = this.tasks.find((t) => t.state === 'queued');
      const poll = this.parked.find((p) => !p.closed);
      if (!task || !poll) return;
      this.parked = this.parked.filter((p) => p !== poll);
      task.state = 'handed';
      task.worker = poll.worker;
      this.answer(poll.res, 200, { taskToken: task.token, input: task.input });
    }
  }

  private answer(res: ServerResponse, status: number, body: object): void {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomBytes(8).toString('hex') });
    res.end(JSON.stringify(body));
    this.changed();
  }
  private fail(res: ServerResponse, status: number, type: string, message: string): void {
    this.answer(res, status, { __type: `com.amazonaws.sfn#${type}`, message });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const target = String(req.headers['x-amz-target'] ?? '');
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, string>;
    if (req.headers['content-type'] !== 'application/x-amz-json-1.0' || !target.startsWith('AWSStepFunctions.')) {
      return this.fail(res, 400, 'SerializationException', 'not AWS JSON 1.0');
    }
    const op = target.slice('AWSStepFunctions.'.length);
    if (op === 'GetActivityTask') {
      this.polls++;
      const failure = this.failNextPolls.shift();
      if (failure) return this.fail(res, failure.status, failure.type, 'try again');
      if (!this.knownActivities.has(body.activityArn)) return this.fail(res, 400, 'ActivityDoesNotExist', 'Activity Does Not Exist');
      const poll = { res, closed: false, worker: body.workerName };
      res.on('close', () => {
        if (!res.writableEnded) {
          poll.closed = true;
          this.cancelledPolls++;
          this.parked = this.parked.filter((p) => p !== poll);
          this.changed();
        }
      });
      this.parked.push(poll);
      this.changed();
      return this.dispatch();
    }
    const task = this.byToken(body.taskToken);
    if (!task) return this.fail(res, 400, 'TaskDoesNotExist', 'Task Does Not Exist');
    const closed = task.state === 'succeeded' || task.state === 'failed';
    if (op === 'SendTaskHeartbeat') {
      if (closed) {
        task.lateHeartbeats++;
        return this.fail(res, 400, 'TaskDoesNotExist', 'Task Does Not Exist');
      }
      if (task.state === 'timed-out') return this.fail(res, 400, 'TaskTimedOut', 'Task Timed Out');
      task.heartbeats++;
      return this.answer(res, 200, {});
    }
    if (task.state === 'timed-out') return this.fail(res, 400, 'TaskTimedOut', 'Task Timed Out');
    if (closed) return this.fail(res, 400, 'TaskDoesNotExist', 'Task Does Not Exist');
    if (op === 'SendTaskSuccess') {
      if (body.output.length > 262144) return this.fail(res, 400, 'InvalidOutput', 'output too large');
      Object.assign(task, { state: 'succeeded', output: body.output });
      return this.answer(res, 200, {});
    }
    if (op === 'SendTaskFailure') {
      Object.assign(task, { state: 'failed', error: body.error, cause: body.cause });
      return this.answer(res, 200, {});
    }
    return this.fail(res, 400, 'UnknownOperationException', op);
  }
}

describe('client.pollActivity (activity worker) against an AWS JSON protocol peer', () => {
  let peer: ActivityPeer;
  let client: WorkflowClient;
  const errors: unknown[] = [];
  const onError = (e: unknown) => errors.push(e);

  beforeEach(async () => {
    errors.length = 0;
    peer = new ActivityPeer();
    await peer.start();
    client = new WorkflowClient({ region: 'us-east-1', version: 'latest', endpoint: peer.url, credentials: { key: 'AKIDWORKER', secret: 'worker-secret' }, retries: 0, account_id_endpoint_mode: 'disabled' });
  });
  afterEach(async () => {
    client.destroy();
    await peer.close();
  });

  it('runs every task through the handler, at most `concurrency` at a time, and reports each result once', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const gate: Array<() => void> = [];
    const worker = client.pollActivity(
      ACTIVITY,
      async (input: { n: number }) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise<void>((r) => gate.push(r));
        inFlight--;
        return { doubled: input.n * 2 };
      },
      { concurrency: 3, workerName: 'unit-worker', onError },
    );
    const tasks = Array.from({ length: 10 }, (_, n) => peer.queue({ n }));
    // three handlers run and block; no fourth task is taken while they do
    await peer.until(() => gate.length === 3);
    expect(tasks.filter((t) => t.state === 'handed')).toHaveLength(3);
    // release handlers one at a time until all are done
    while (tasks.some((t) => t.state !== 'succeeded')) {
      await peer.until(() => gate.length > 0 || tasks.every((t) => t.state === 'succeeded'));
      gate.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await worker.stop();
    expect(maxInFlight).toBe(3);
    expect(tasks.map((t) => JSON.parse(t.output!))).toEqual(tasks.map((_, n) => ({ doubled: n * 2 })));
    expect(new Set(tasks.map((t) => t.worker))).toEqual(new Set(['unit-worker']));
    expect(errors).toEqual([]);
    expect(worker.running).toBe(0);
  });

  it('sends heartbeats while the handler runs, and none once the task is reported', async () => {
    const task = peer.queue({ long: true });
    const worker = client.pollActivity(
      ACTIVITY,
      async () => {
        await peer.until(() => task.heartbeats >= 3);
        return 'finished';
      },
      { heartbeat: 0.02, onError },
    );
    await peer.until(() => task.state === 'succeeded');
    expect(task.heartbeats).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(task.output!)).toBe('finished');
    await worker.stop();
    // stopped and idle: a heartbeat after the report would have been counted by the peer
    await new Promise((r) => setTimeout(r, 100));
    expect(task.lateHeartbeats).toBe(0);
    expect(errors).toEqual([]);
  });

  it("reports a thrown error as SendTaskFailure: the error's name and message, the token masked, limits kept", async () => {
    class PaymentDeclined extends Error {
      override name = 'PaymentDeclined';
    }
    const declined = peer.queue({ kind: 'declined' });
    const plain = peer.queue({ kind: 'plain' });
    const odd = peer.queue({ kind: 'odd' });
    const long = peer.queue({ kind: 'long' });
    const worker = client.pollActivity(
      ACTIVITY,
      (input: { kind: string }, task) => {
        if (input.kind === 'declined') throw new PaymentDeclined(`card refused for task ${task.taskToken}`);
        if (input.kind === 'plain') throw new Error('plain failure');
        if (input.kind === 'odd') throw { reason: 'not an Error' };
        throw Object.assign(new Error('x'.repeat(40000)), { name: `N${'e'.repeat(400)}` });
      },
      { onError },
    );
    await peer.until(() => [declined, plain, odd, long].every((t) => t.state === 'failed'));
    await worker.stop();
    expect([declined.error, declined.cause]).toEqual(['PaymentDeclined', 'card refused for task [task token]']);
    expect([plain.error, plain.cause]).toEqual(['Error', 'plain failure']);
    expect([odd.error, odd.cause]).toEqual(['Error', '{"reason":"not an Error"}']);
    expect([long.error!.length, long.cause!.length]).toEqual([256, 32768]);
    for (const t of [declined, plain, odd, long]) expect(`${t.error} ${t.cause}`).not.toContain(t.token);
    expect(errors).toEqual([]);
  });

  it('the task object does not show its token when logged, and failureOf masks it anywhere', () => {
    expect(failureOf(new TypeError('a TOKEN b TOKEN'), 'TOKEN')).toEqual({ error: 'TypeError', cause: 'a [task token] b [task token]' });
    expect(failureOf('TOKEN', 'TOKEN')).toEqual({ error: 'Error', cause: '[task token]' });
  });

  it('a heartbeat answered TaskTimedOut aborts task.signal and nothing is reported for the task', async () => {
    const task = peer.queue({});
    let sawAbort = false;
    const worker = client.pollActivity(
      ACTIVITY,
      async (_input, t) => {
        expect(JSON.stringify(t)).not.toContain(task.token);
        await peer.until(() => task.heartbeats >= 1);
        task.state = 'timed-out';
        await new Promise<void>((resolve) => t.signal.addEventListener('abort', () => resolve(), { once: true }));
        sawAbort = t.signal.aborted;
        return 'too late';
      },
      { heartbeat: 0.02, onError },
    );
    await peer.until(() => sawAbort);
    await worker.stop();
    expect([task.state, task.output, task.error]).toEqual(['timed-out', undefined, undefined]);
  });

  it('a result the service refuses becomes a SendTaskFailure with its reason, so the job does not wait for a timeout', async () => {
    const task = peer.queue({});
    const worker = client.pollActivity(ACTIVITY, () => 'y'.repeat(300000), { onError });
    await peer.until(() => task.state === 'failed');
    await worker.stop();
    expect([task.error, task.cause]).toEqual(['InvalidOutput', expect.stringContaining('output too large')]);
    expect(errors.map((e) => (e as WorkflowServiceException).code)).toEqual(['InvalidOutput']);
  });

  it('stop() cancels the parked polls, lets a running handler finish and report, then resolves', async () => {
    const task = peer.queue({});
    let release!: () => void;
    const worker = client.pollActivity(
      ACTIVITY,
      async () => {
        await new Promise<void>((r) => (release = r));
        return { done: true };
      },
      { concurrency: 3, onError },
    );
    // one handler runs; the two other loops are parked in long polls
    await peer.until(() => task.state === 'handed' && peer.parked.length === 2);
    const stopped = worker.stop();
    await peer.until(() => peer.cancelledPolls === 2);
    let resolved = false;
    void stopped.then(() => (resolved = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(resolved).toBe(false); // still waiting for the running task
    release();
    await stopped;
    expect(task.state).toBe('succeeded');
    expect(peer.parked).toHaveLength(0);
    // a task queued after the stop is not taken
    const later = peer.queue({});
    await new Promise((r) => setTimeout(r, 50));
    expect(later.state).toBe('queued');
    expect(errors).toEqual([]);
  });

  it('an AbortSignal stops it like stop(); an already aborted one starts nothing', async () => {
    const ac = new AbortController();
    const worker = client.pollActivity(ACTIVITY, () => 1, { signal: ac.signal, concurrency: 2, onError });
    await peer.until(() => peer.parked.length === 2);
    ac.abort();
    await worker.done;
    await peer.until(() => peer.cancelledPolls === 2);
    expect(peer.parked).toHaveLength(0);
    const before = peer.polls;
    const idle = client.pollActivity(ACTIVITY, () => 1, { signal: AbortSignal.abort(), onError });
    await idle.done;
    expect(peer.polls).toBe(before);
    expect(errors).toEqual([]);
  });

  it('keeps polling after a server error or a poll cap (backing off), and stops with the error for an unknown activity', async () => {
    peer.failNextPolls.push({ status: 500, type: 'InternalFailure' }, { status: 400, type: 'ActivityWorkerLimitExceeded' }, { status: 503, type: 'ServiceUnavailable' });
    const task = peer.queue({ n: 1 });
    const worker = client.pollActivity(ACTIVITY, (input: { n: number }) => input.n + 1, { onError });
    await peer.until(() => task.state === 'succeeded');
    await worker.stop();
    expect(task.output).toBe('2');
    expect(errors.map((e) => (e as WorkflowServiceException).code)).toEqual(['InternalFailure', 'ActivityWorkerLimitExceeded', 'ServiceUnavailable']);

    errors.length = 0;
    const missing = client.pollActivity(`${ACTIVITY}-missing`, () => 1, { concurrency: 2, onError });
    const err = await missing.done.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowServiceException);
    expect((err as WorkflowServiceException).code).toBe('ActivityDoesNotExist');
    expect(errors.length).toBeGreaterThanOrEqual(1);
  });

  it('a request cancelled through @http.signal rejects at once and is not retried, whatever the retry mode', async () => {
    for (const retries of [{ mode: 'standard', max_attempts: 3 }, { mode: 'legacy', max_attempts: 3 }]) {
      const c = new WorkflowClient({ region: 'us-east-1', version: 'latest', endpoint: peer.url, credentials: { key: 'AKIDWORKER', secret: 'worker-secret' }, retries, stats: { retries: true }, account_id_endpoint_mode: 'disabled' });
      const ac = new AbortController();
      const before = peer.polls;
      const pending = c.getActivityTask({ activityArn: ACTIVITY, '@http': { signal: ac.signal } }).catch((e: unknown) => e);
      await peer.until(() => peer.parked.length === 1);
      ac.abort();
      const err = (await pending) as WorkflowServiceException;
      expect([err.connectionError, err.getTransferInfo('retries_attempted'), peer.polls - before]).toEqual([true, 0, 1]);
      await peer.until(() => peer.parked.length === 0);
      c.destroy();
    }
  });

  it('rejects bad arguments with an InvalidArgumentError', () => {
    expect(() => client.pollActivity('', () => 1)).toThrow(InvalidArgumentError);
    expect(() => client.pollActivity(ACTIVITY, 'nope' as never)).toThrow('the handler must be a function');
    expect(() => client.pollActivity(ACTIVITY, () => 1, { concurrency: 0 })).toThrow('concurrency must be an integer from 1 to 1000');
    expect(() => client.pollActivity(ACTIVITY, () => 1, { heartbeat: -1 })).toThrow('heartbeat must be a positive number of seconds');
  });
});
