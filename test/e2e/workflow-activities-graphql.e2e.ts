/**
 * Activities in the graph over HTTP with Bearer tokens: create (idempotent), list, delete; a job's pending tasks; the
 * sendTaskSuccess / sendTaskFailure mutations over the same rules as the wire protocol (the workflow scope needed,
 * another user's token refused, a spent token TASK_TIMED_OUT), never a token in an answer.
 */
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { AccessKey, signedCall } from '../helpers/sigv4';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

describe('workflow activities in GraphQL', () => {
  let t: TestApp;
  let owner: string;
  let stranger: string;
  let noScope: string;
  let key: AccessKey;
  const aws = (target: string, body: unknown) => signedCall(t.url, { key, target: `AWSStepFunctions.${target}`, body: JSON.stringify(body) });

  beforeAll(async () => {
    t = await startTestApp({ env: { WORKFLOW_ACTIVITY_POLL_SECONDS: '1' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const alice = await fx.user(uniq('alice'));
    const bob = await fx.user(uniq('bob'));
    owner = await fx.classicToken(alice, ['workflow']);
    stranger = await fx.classicToken(bob, ['workflow']);
    noScope = await fx.classicToken(alice, ['repo']);
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: alice.login });
    key = { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates, lists, deletes activities; shows pending tasks; answers tasks by mutation under the same rules', async () => {
    const create = `mutation($name: String!) { createWorkflowActivity(input: { name: $name }) { activity { id arn name createdAt } } }`;
    const a = await gql(t.url, create, { name: 'gql-act' }, owner);
    expect(a.body.errors).toBeUndefined();
    const arn = a.body.data.createWorkflowActivity.activity.arn as string;
    expect(arn).toBe('arn:aws:states:us-east-1:000000000000:activity:gql-act');
    expect((await gql(t.url, create, { name: 'gql-act' }, owner)).body.data.createWorkflowActivity.activity.arn).toBe(arn);
    expect((await gql(t.url, create, { name: 'x' }, noScope)).body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const list = await gql(t.url, `{ workflowActivities(maxResults: 10) { items { name arn } nextToken } }`, {}, owner);
    expect(list.body.data.workflowActivities).toEqual({ items: [{ name: 'gql-act', arn }], nextToken: null });

    const definition = { StartAt: 'Work', States: { Work: { Type: 'Task', Resource: arn, HeartbeatSeconds: 60, End: true } } };
    const sm = (await aws('CreateStateMachine', { name: 'gql-act', roleArn: ROLE, definition: JSON.stringify(definition) })).body as { stateMachineArn: string };
    const job = (await aws('StartExecution', { stateMachineArn: sm.stateMachineArn, input: '{"n":1}' })).body as { executionArn: string };
    const pending = `query($arn: String!) { workflowJob(arn: $arn) { status pendingTasks { kind status stateName resource input workerName startedAt heartbeatUntil } } }`;
    let tasks: Array<Record<string, unknown>> = [];
    const until = Date.now() + 20_000;
    while (tasks.length === 0) {
      tasks = (await gql(t.url, pending, { arn: job.executionArn }, owner)).body.data.workflowJob.pendingTasks;
      if (Date.now() > until) throw new Error('no pending task');
    }
    expect(tasks).toEqual([{ kind: 'ACTIVITY', status: 'SCHEDULED', stateName: 'Work', resource: arn, input: '{"n":1}', workerName: null, startedAt: null, heartbeatUntil: null }]);
    let token: string | undefined;
    while (!token) token = ((await aws('GetActivityTask', { activityArn: arn, workerName: 'gw' })).body as { taskToken?: string }).taskToken;
    const started = (await gql(t.url, pending, { arn: job.executionArn }, owner)).body.data.workflowJob.pendingTasks;
    expect(started[0]).toMatchObject({ status: 'STARTED', workerName: 'gw' });
    expect(JSON.stringify(started)).not.toContain(token);

    const success = `mutation($token: String!, $output: String!) { sendTaskSuccess(input: { taskToken: $token, output: $output }) { accepted } }`;
    expect((await gql(t.url, success, { token, output: '{}' }, stranger)).body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await gql(t.url, success, { token, output: '{}' }, noScope)).body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const bad = await gql(t.url, success, { token, output: '{nope' }, owner);
    expect(bad.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(bad.body)).not.toContain(token);
    expect((await gql(t.url, success, { token, output: '{"via":"graphql"}' }, owner)).body.data.sendTaskSuccess).toEqual({ accepted: true });
    const failure = `mutation($token: String!) { sendTaskFailure(input: { taskToken: $token, error: "E" }) { accepted } }`;
    const spent = await gql(t.url, failure, { token }, owner);
    expect(spent.body.errors?.[0].message).toMatch(/Task Timed Out/);
    expect(JSON.stringify(spent.body)).not.toContain(token);

    const untilDone = Date.now() + 20_000;
    for (;;) {
      const d = (await aws('DescribeExecution', { executionArn: job.executionArn })).body as { status: string; output?: string };
      if (d.status !== 'RUNNING') {
        expect([d.status, d.output]).toEqual(['SUCCEEDED', '{"via":"graphql"}']);
        break;
      }
      if (Date.now() > untilDone) throw new Error('job still RUNNING');
      await new Promise((r) => setTimeout(r, 50));
    }
    const del = await gql(t.url, `mutation($arn: String!) { deleteWorkflowActivity(input: { arn: $arn }) { arn } }`, { arn }, owner);
    expect(del.body.data.deleteWorkflowActivity).toEqual({ arn });
    expect((await gql(t.url, `{ workflowActivities { items { name } } }`, {}, owner)).body.data.workflowActivities.items).toEqual([]);
  }, 60_000);
});
