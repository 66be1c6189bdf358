/**
 * client.pollActivity against the gateway's real activities: a worker made with our WorkflowClient completes the
 * tasks of several jobs (results back in the jobs' output), reports a thrown custom error as SendTaskFailure that the
 * definition's Catch matches by name (the task token masked in the cause), keeps a task longer than its
 * HeartbeatSeconds alive by heartbeating, stops cleanly; and a worker without heartbeats loses the task to
 * States.HeartbeatTimeout and is told so (TaskTimedOut) instead of completing it.
 */
import { WorkflowClient, WorkflowServiceException } from '@graphql-domain-gateway/workflow-client';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';

const REGION = 'us-east-1';
const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

class PaymentDeclined extends Error {
  override name = 'PaymentDeclined';
}

describe('client.pollActivity against the gateway', () => {
  let t: TestApp;
  let client: WorkflowClient;

  beforeAll(async () => {
    // Polls answer empty after 1 s here (60 s by default), so idle loops come back quickly.
    t = await startTestApp({ env: { WORKFLOW_ACTIVITY_POLL_SECONDS: '1' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('poller'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    // The key is of the gateway's account: credentials carrying it, as a user gives them (no AccountIdWarning).
    const credentials = { key: k.accessKeyId, secret: k.secretAccessKey, accountId: t.config.workflowAccountId };
    client = new WorkflowClient({ region: REGION, version: 'latest', endpoint: `${t.url}/workflow`, credentials });
  });
  afterAll(async () => {
    client?.destroy();
    await t?.close();
  });

  const define = async (name: string, definition: object) =>
    (await client.createStateMachine({ name: uniq(name), roleArn: ROLE, definition: JSON.stringify(definition) })).stateMachineArn as string;
  const finished = async (executionArn: string) => {
    await client.waitUntil('ExecutionComplete', { executionArn, '@waiter': { delay: 0.1, maxAttempts: 600 } });
    return client.describeExecution({ executionArn });
  };

  it('completes the tasks of 8 jobs, reports a thrown error by name, heartbeats a long task through, and stops', async () => {
    const { activityArn } = await client.createActivity({ name: uniq('work') });
    const arn = await define('activity-jobs', {
      StartAt: 'Each',
      States: {
        Each: {
          Type: 'Map',
          ItemsPath: '$.items',
          MaxConcurrency: 5,
          ItemProcessor: {
            StartAt: 'Work',
            States: {
              Work: {
                Type: 'Task',
                Resource: activityArn,
                TimeoutSeconds: 120,
                HeartbeatSeconds: 2,
                Catch: [{ ErrorEquals: ['PaymentDeclined'], ResultPath: '$.failure', Next: 'Declined' }],
                End: true,
              },
              Declined: { Type: 'Pass', End: true },
            },
          },
          End: true,
        },
      },
    });
    const jobs: string[] = [];
    for (let j = 0; j < 8; j++) {
      const items = Array.from({ length: 5 }, (_, i) => ({ job: j, i, declined: i === 3, slow: j === 0 && i === 0 }));
      jobs.push((await client.startExecution({ stateMachineArn: arn, input: JSON.stringify({ items }) })).executionArn as string);
    }
    const handled: string[] = [];
    const errors: unknown[] = [];
    const worker = client.pollActivity(
      activityArn as string,
      async (input: { job: number; i: number; declined: boolean; slow: boolean }, task) => {
        handled.push(`${input.job}/${input.i}`);
        if (input.declined) throw new PaymentDeclined(`card refused (task ${task.taskToken})`);
        // Longer than HeartbeatSeconds: only the worker's heartbeats keep this task alive.
        if (input.slow) await new Promise((r) => setTimeout(r, 3500));
        return { job: input.job, doubled: input.i * 2 };
      },
      { concurrency: 4, heartbeat: 0.5, onError: (e) => errors.push(e) },
    );
    const outcomes = [];
    for (const job of jobs) outcomes.push(await finished(job));
    await worker.stop();

    expect(outcomes.map((o) => o.status)).toEqual(jobs.map(() => 'SUCCEEDED'));
    outcomes.forEach((o, j) => {
      const items = JSON.parse(o.output as string) as Array<Record<string, unknown>>;
      expect(items.filter((_, i) => i !== 3)).toEqual([0, 1, 2, 4].map((i) => ({ job: j, doubled: i * 2 })));
      expect(items[3]).toMatchObject({ job: j, i: 3, failure: { Error: 'PaymentDeclined', Cause: 'card refused (task [task token])' } });
    });
    // each task handed to the worker once
    expect(handled.sort()).toEqual(jobs.flatMap((_, j) => [0, 1, 2, 3, 4].map((i) => `${j}/${i}`)).sort());
    expect(errors).toEqual([]);
    expect(worker.running).toBe(0);
  });

  it('a worker that does not heartbeat loses a task to States.HeartbeatTimeout and does not complete it', async () => {
    const { activityArn } = await client.createActivity({ name: uniq('silent') });
    const arn = await define('activity-heartbeat', {
      StartAt: 'Work',
      States: { Work: { Type: 'Task', Resource: activityArn, HeartbeatSeconds: 1, TimeoutSeconds: 60, End: true } },
    });
    const { executionArn } = await client.startExecution({ stateMachineArn: arn, input: '{}' });
    const errors: unknown[] = [];
    let release!: () => void;
    let token = '';
    const worker = client.pollActivity(
      activityArn as string,
      (_input, task) => {
        token = task.taskToken;
        return new Promise((r) => (release = () => r('too late')));
      },
      { onError: (e) => errors.push(e) },
    );
    const outcome = await finished(executionArn as string);
    expect([outcome.status, outcome.error]).toEqual(['FAILED', 'States.HeartbeatTimeout']);
    release();
    await worker.stop();
    expect(errors.map((e) => (e as WorkflowServiceException).code)).toEqual(['TaskTimedOut']);
    expect(token).not.toBe('');
    for (const e of errors) expect(`${(e as Error).message} ${JSON.stringify(e)}`).not.toContain(token);
  });
});
