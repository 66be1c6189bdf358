/**
 * Parked GetActivityTask polls: 500 polls wait at once (no task) while /healthz and other requests answer, the
 * gauge counts them, one more than the credential's cap is refused with ActivityWorkerLimitExceeded, a task
 * scheduled meanwhile goes to exactly one of them, and polls whose clients hang up stop waiting. /metrics shows the
 * AWS operation label and the job counters.
 */
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { AccessKey, signedCall, signedHeaders } from '../helpers/sigv4';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const POLLS = 500;

describe('parked activity polls', () => {
  let t: TestApp;
  let key: AccessKey;
  const call = (target: string, body: unknown) => signedCall(t.url, { key, target: `AWSStepFunctions.${target}`, body: JSON.stringify(body) });
  const metric = async (line: RegExp): Promise<number> => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const m = text.split('\n').find((l) => line.test(l));
    return m ? Number(m.split(' ').pop()) : NaN;
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { WORKFLOW_ACTIVITY_POLLS_PER_CREDENTIAL: String(POLLS) } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('poller'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    key = { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('holds 500 polls without blocking the server, caps them per credential, hands a task to one', async () => {
    const activity = (await call('CreateActivity', { name: 'parked' })).body as { activityArn: string };
    const body = JSON.stringify({ activityArn: activity.activityArn, workerName: 'p' });
    const abort = new AbortController();
    const polls: Array<Promise<{ taskToken?: string } | null>> = [];
    for (let i = 0; i < POLLS; i++) {
      const headers = await signedHeaders(t.url, { key, target: 'AWSStepFunctions.GetActivityTask', body });
      delete headers.host;
      polls.push(
        fetch(`${t.url}/workflow`, { method: 'POST', headers, body, signal: abort.signal }).then(
          async (r) => (await r.json()) as { taskToken?: string },
          () => null,
        ),
      );
    }
    const until = Date.now() + 30_000;
    while ((await metric(/^workflow_activity_polls_parked /)) < POLLS) {
      if (Date.now() > until) throw new Error(`parked: ${await metric(/^workflow_activity_polls_parked /)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // The server answers everything else meanwhile.
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    expect((await call('ListActivities', {})).status).toBe(200);
    // One poll more than the credential may have waiting.
    const refused = await call('GetActivityTask', { activityArn: activity.activityArn });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ __type: 'ActivityWorkerLimitExceeded' });

    // A task scheduled now wakes one parked poll, which takes it.
    const definition = { StartAt: 'W', States: { W: { Type: 'Task', Resource: activity.activityArn, End: true } } };
    const sm = (await call('CreateStateMachine', { name: 'parked-job', roleArn: ROLE, definition: JSON.stringify(definition) })).body as { stateMachineArn: string };
    await call('StartExecution', { stateMachineArn: sm.stateMachineArn, input: '{"x":1}' });
    let winner: { taskToken?: string } | null = null;
    const firstAnswer = await Promise.race(polls.map((p) => p.then((v) => (v?.taskToken ? v : new Promise<never>(() => undefined)))));
    winner = firstAnswer;
    expect(winner?.taskToken).toMatch(/^gwt1\./);

    // The clients hang up: their polls stop waiting.
    abort.abort();
    const answers = await Promise.all(polls);
    expect(answers.filter((a) => a?.taskToken)).toHaveLength(1);
    const until2 = Date.now() + 30_000;
    while ((await metric(/^workflow_activity_polls_parked /)) > 0) {
      if (Date.now() > until2) throw new Error('polls still parked after their clients left');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await metric(/^workflow_activity_tasks_open /)).toBe(1);
    expect(await metric(/^workflow_aws_operations_total\{operation="GetActivityTask",status="400"\}/)).toBe(1);
    expect(await metric(/^workflow_jobs_total\{event="started"\}/)).toBe(1);
    await call('SendTaskSuccess', { taskToken: winner!.taskToken, output: '{}' });
  }, 120_000);
});
