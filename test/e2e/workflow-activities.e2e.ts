/**
 * Activities with the REAL @aws-sdk/client-sfn: activity CRUD, workers written with the SDK (GetActivityTask ->
 * SendTaskSuccess) completing 200 tasks of 20 jobs, each task handed to exactly one worker, heartbeats keeping a
 * task alive and a missed heartbeat failing it (States.HeartbeatTimeout, caught by the definition), task token
 * errors (InvalidToken, TaskDoesNotExist, TaskTimedOut) and the history events Step Functions names.
 */
import {
  CreateActivityCommand,
  CreateStateMachineCommand,
  DeleteActivityCommand,
  DescribeActivityCommand,
  GetActivityTaskCommand,
  GetExecutionHistoryCommand,
  HistoryEvent,
  ListActivitiesCommand,
  SendTaskFailureCommand,
  SendTaskHeartbeatCommand,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { waitForExecution } from '../helpers/workflow-jobs';

const REGION = 'us-east-1';
const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

async function errorName(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return (e as Error).name;
  }
}

describe('workflow activities with @aws-sdk/client-sfn', () => {
  let t: TestApp;
  let sfn: SFNClient;
  let other: SFNClient;

  beforeAll(async () => {
    // Polls answer empty after 1 s here (60 s by default), so idle workers come back quickly.
    t = await startTestApp({ env: { WORKFLOW_ACTIVITY_POLL_SECONDS: '1' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('worker'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    sfn = new SFNClient({ region: REGION, endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
    const stranger = await fx.user(uniq('stranger'));
    const k2 = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: stranger.login });
    other = new SFNClient({ region: REGION, endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k2.accessKeyId, secretAccessKey: k2.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sfn?.destroy();
    other?.destroy();
    await t?.close();
  });

  const history = async (executionArn: string): Promise<HistoryEvent[]> => {
    const out: HistoryEvent[] = [];
    let nextToken: string | undefined;
    do {
      const page = await sfn.send(new GetExecutionHistoryCommand({ executionArn, nextToken, maxResults: 1000 }));
      out.push(...(page.events ?? []));
      nextToken = page.nextToken;
    } while (nextToken);
    return out;
  };

  const waitForEnd = (executionArn: string, within = 30_000) => waitForExecution(sfn, executionArn, { timeoutMs: within });

  it('creates (idempotently), describes, lists and deletes activities', async () => {
    const a = await sfn.send(new CreateActivityCommand({ name: 'crud-a' }));
    expect(a.activityArn).toBe('arn:aws:states:us-east-1:000000000000:activity:crud-a');
    const again = await sfn.send(new CreateActivityCommand({ name: 'crud-a' }));
    expect(again.activityArn).toBe(a.activityArn);
    expect(again.creationDate?.getTime()).toBe(a.creationDate?.getTime());
    await sfn.send(new CreateActivityCommand({ name: 'crud-b' }));
    const d = await sfn.send(new DescribeActivityCommand({ activityArn: a.activityArn }));
    expect(d).toMatchObject({ activityArn: a.activityArn, name: 'crud-a' });
    const page1 = await sfn.send(new ListActivitiesCommand({ maxResults: 1 }));
    expect(page1.activities?.map((x) => x.name)).toEqual(['crud-a']);
    const page2 = await sfn.send(new ListActivitiesCommand({ maxResults: 1, nextToken: page1.nextToken }));
    expect(page2.activities?.map((x) => x.name)).toEqual(['crud-b']);
    await sfn.send(new DeleteActivityCommand({ activityArn: a.activityArn }));
    expect(await errorName(sfn.send(new DescribeActivityCommand({ activityArn: a.activityArn })))).toBe('ActivityDoesNotExist');
    expect(await errorName(sfn.send(new DescribeActivityCommand({ activityArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:x' })))).toBe('InvalidArn');
    expect(await errorName(sfn.send(new CreateActivityCommand({ name: 'bad name' })))).toBe('InvalidName');
    expect(await errorName(sfn.send(new GetActivityTaskCommand({ activityArn: a.activityArn })))).toBe('ActivityDoesNotExist');
    // deleting is idempotent (a deleted activity again is fine), an ARN of something else is not
    expect(await errorName(sfn.send(new DeleteActivityCommand({ activityArn: a.activityArn })))).toBe('ok');
    expect(await errorName(sfn.send(new DeleteActivityCommand({ activityArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:x' })))).toBe('InvalidArn');
    expect(await errorName(sfn.send(new ListActivitiesCommand({ nextToken: `${page1.nextToken}x` })))).toBe('InvalidToken');
    expect(await errorName(sfn.send(new ListActivitiesCommand({ maxResults: 1001 })))).toBe('ValidationException');
  });

  it('an SDK worker fleet completes 200 tasks of 20 jobs, each task taken once', async () => {
    const { activityArn } = await sfn.send(new CreateActivityCommand({ name: 'double' }));
    const definition = {
      StartAt: 'Each',
      States: {
        Each: {
          Type: 'Map',
          ItemsPath: '$.items',
          MaxConcurrency: 10,
          ItemProcessor: { StartAt: 'Double', States: { Double: { Type: 'Task', Resource: activityArn, TimeoutSeconds: 120, End: true } } },
          End: true,
        },
      },
    };
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: 'fleet', roleArn: ROLE, definition: JSON.stringify(definition) }));
    const arns: string[] = [];
    for (let j = 0; j < 20; j++) {
      const items = Array.from({ length: 10 }, (_, i) => ({ job: j, i }));
      arns.push((await sfn.send(new StartExecutionCommand({ stateMachineArn, name: `fleet-${j}`, input: JSON.stringify({ items }) }))).executionArn!);
    }
    const seen = new Map<string, number>();
    const tokens = new Set<string>();
    let stop = false;
    const worker = async (name: string) => {
      while (!stop) {
        const task = await sfn.send(new GetActivityTaskCommand({ activityArn, workerName: name }));
        if (!task.taskToken) continue;
        tokens.add(task.taskToken);
        const input = JSON.parse(task.input!) as { job: number; i: number };
        const key = `${input.job}/${input.i}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        await sfn.send(new SendTaskSuccessCommand({ taskToken: task.taskToken, output: JSON.stringify({ ...input, twice: input.i * 2 }) }));
      }
    };
    const workers = Array.from({ length: 8 }, (_, i) => worker(`w${i}`));
    try {
      for (const arn of arns) {
        const d = await waitForEnd(arn, 120_000);
        expect(d.status).toBe('SUCCEEDED');
        const out = JSON.parse(d.output!) as Array<{ i: number; twice: number }>;
        expect(out.map((o) => o.twice)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
      }
    } finally {
      stop = true;
      await Promise.all(workers);
    }
    expect(seen.size).toBe(200);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(tokens.size).toBe(200);
    const h = await history(arns[0]);
    const types = h.map((e) => e.type);
    expect(types.filter((x) => x === 'ActivityScheduled')).toHaveLength(10);
    expect(types.filter((x) => x === 'ActivityStarted')).toHaveLength(10);
    expect(types.filter((x) => x === 'ActivitySucceeded')).toHaveLength(10);
    const scheduled = h.find((e) => e.type === 'ActivityScheduled')!;
    expect(scheduled.activityScheduledEventDetails).toMatchObject({ resource: activityArn, timeoutInSeconds: 120 });
    const started = h.find((e) => e.type === 'ActivityStarted')!;
    expect(started.activityStartedEventDetails?.workerName).toMatch(/^w\d$/);
  }, 180_000);

  it('heartbeats keep a task alive; a missed heartbeat fails it with States.HeartbeatTimeout', async () => {
    const { activityArn } = await sfn.send(new CreateActivityCommand({ name: 'slow' }));
    const definition = {
      StartAt: 'Work',
      States: {
        Work: {
          Type: 'Task',
          Resource: activityArn,
          HeartbeatSeconds: 1,
          Catch: [{ ErrorEquals: ['States.HeartbeatTimeout'], ResultPath: '$.error', Next: 'Missed' }],
          End: true,
        },
        Missed: { Type: 'Pass', End: true },
      },
    };
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: 'heartbeat', roleArn: ROLE, definition: JSON.stringify(definition) }));
    const take = async () => {
      for (;;) {
        const task = await sfn.send(new GetActivityTaskCommand({ activityArn, workerName: 'hb' }));
        if (task.taskToken) return task.taskToken;
      }
    };

    // Alive: heartbeats every 300 ms, for more heartbeat periods than one, then success.
    const alive = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: '{"n":1}' }));
    const token = await take();
    for (let i = 0; i < 8; i++) {
      await sfn.send(new SendTaskHeartbeatCommand({ taskToken: token }));
      await new Promise((r) => setTimeout(r, 300));
    }
    await sfn.send(new SendTaskSuccessCommand({ taskToken: token, output: '{"done":true}' }));
    const a = await waitForEnd(alive.executionArn!);
    expect(a.status).toBe('SUCCEEDED');
    expect(JSON.parse(a.output!)).toEqual({ done: true });
    expect(await errorName(sfn.send(new SendTaskSuccessCommand({ taskToken: token, output: '{}' })))).toBe('TaskTimedOut');

    // Missed: the worker takes the task and goes silent; the job's Catch sees States.HeartbeatTimeout.
    const missed = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: '{"n":2}' }));
    const silent = await take();
    const m = await waitForEnd(missed.executionArn!);
    expect(m.status).toBe('SUCCEEDED');
    expect(JSON.parse(m.output!)).toMatchObject({ n: 2, error: { Error: 'States.HeartbeatTimeout' } });
    const types = (await history(missed.executionArn!)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['ActivityScheduled', 'ActivityStarted', 'ActivityTimedOut']));
    expect(await errorName(sfn.send(new SendTaskSuccessCommand({ taskToken: silent, output: '{}' })))).toBe('TaskTimedOut');
    expect(await errorName(sfn.send(new SendTaskHeartbeatCommand({ taskToken: silent })))).toBe('TaskTimedOut');
  }, 60_000);

  it('answers bad tokens and outputs as Step Functions does; a failure goes to the job', async () => {
    const { activityArn } = await sfn.send(new CreateActivityCommand({ name: 'fails' }));
    const definition = { StartAt: 'Work', States: { Work: { Type: 'Task', Resource: activityArn, End: true } } };
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: 'fails', roleArn: ROLE, definition: JSON.stringify(definition) }));
    expect(await errorName(sfn.send(new SendTaskSuccessCommand({ taskToken: 'not-a-token', output: '{}' })))).toBe('InvalidToken');
    expect(await errorName(sfn.send(new SendTaskSuccessCommand({ taskToken: `gwt1.${'A'.repeat(43)}`, output: '{}' })))).toBe('TaskDoesNotExist');
    const job = await sfn.send(new StartExecutionCommand({ stateMachineArn }));
    let token: string | undefined;
    while (!token) token = (await sfn.send(new GetActivityTaskCommand({ activityArn }))).taskToken;
    expect(await errorName(sfn.send(new SendTaskSuccessCommand({ taskToken: token, output: '{not json' })))).toBe('InvalidOutput');
    await sfn.send(new SendTaskFailureCommand({ taskToken: token, error: 'Worker.Broke', cause: 'the disk is full' }));
    const d = await waitForEnd(job.executionArn!);
    expect(d).toMatchObject({ status: 'FAILED', error: 'Worker.Broke', cause: 'the disk is full' });
    const failed = (await history(job.executionArn!)).find((e) => e.type === 'ActivityFailed');
    expect(failed?.activityFailedEventDetails).toEqual({ error: 'Worker.Broke', cause: 'the disk is full' });
    expect(await errorName(sfn.send(new SendTaskFailureCommand({ taskToken: token })))).toBe('TaskTimedOut');
    // Nothing scheduled: an empty answer after the poll time.
    const empty = await sfn.send(new GetActivityTaskCommand({ activityArn }));
    expect(empty.taskToken).toBeUndefined();
  }, 30_000);

  it("another user's key cannot answer a task of a job it may not act on", async () => {
    const { activityArn } = await sfn.send(new CreateActivityCommand({ name: 'guarded' }));
    const definition = { StartAt: 'Work', States: { Work: { Type: 'Task', Resource: activityArn, End: true } } };
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: 'guarded', roleArn: ROLE, definition: JSON.stringify(definition) }));
    const job = await sfn.send(new StartExecutionCommand({ stateMachineArn }));
    let token: string | undefined;
    while (!token) token = (await sfn.send(new GetActivityTaskCommand({ activityArn }))).taskToken;
    expect(await errorName(other.send(new SendTaskSuccessCommand({ taskToken: token, output: '{"stolen":true}' })))).toBe('AccessDeniedException');
    expect(await errorName(other.send(new SendTaskFailureCommand({ taskToken: token })))).toBe('AccessDeniedException');
    expect(await errorName(other.send(new SendTaskHeartbeatCommand({ taskToken: token })))).toBe('AccessDeniedException');
    await sfn.send(new SendTaskSuccessCommand({ taskToken: token, output: '{"mine":true}' }));
    const d = await waitForEnd(job.executionArn!);
    expect([d.status, d.output]).toEqual(['SUCCEEDED', '{"mine":true}']);
  }, 30_000);

  it('a stopped job closes its tasks: workers get none, tokens answer TaskTimedOut', async () => {
    const { activityArn } = await sfn.send(new CreateActivityCommand({ name: 'stopped' }));
    const definition = { StartAt: 'P', States: { P: { Type: 'Parallel', End: true, Branches: [0, 1].map((i) => ({ StartAt: `W${i}`, States: { [`W${i}`]: { Type: 'Task', Resource: activityArn, End: true } } })) } } };
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: 'stopped', roleArn: ROLE, definition: JSON.stringify(definition) }));
    const job = await sfn.send(new StartExecutionCommand({ stateMachineArn }));
    let token: string | undefined;
    while (!token) token = (await sfn.send(new GetActivityTaskCommand({ activityArn }))).taskToken;
    await sfn.send(new StopExecutionCommand({ executionArn: job.executionArn }));
    expect(await errorName(sfn.send(new SendTaskSuccessCommand({ taskToken: token, output: '{}' })))).toBe('TaskTimedOut');
    expect((await sfn.send(new GetActivityTaskCommand({ activityArn }))).taskToken).toBeUndefined();
  }, 30_000);
});
