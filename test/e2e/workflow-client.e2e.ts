/**
 * Our WorkflowClient (spec 002) against the running gateway, side by side with the official @aws-sdk/client-sfn:
 * start jobs, page through a long list, wait for a job's success and see a failure waiter reject, stop a job, and a
 * service error — the same calls through both clients give the same answers.
 */
import {
  DescribeExecutionCommand,
  ExecutionDoesNotExist,
  paginateListExecutions,
  SFNClient,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { WaiterError, WorkflowClient, WorkflowServiceException } from '@graphql-domain-gateway/workflow-client';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';

const REGION = 'us-east-1';
const ROLE = 'arn:aws:iam::000000000000:role/workflow-client';
const JOBS = 130;

describe('WorkflowClient against the gateway, next to @aws-sdk/client-sfn', () => {
  let t: TestApp;
  let ours: WorkflowClient;
  let sdk: SFNClient;

  beforeAll(async () => {
    t = await startTestApp({ env: { CALENDAR_TIMEZONE: 'UTC' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('client'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    const endpoint = `${t.url}/workflow`;
    // The key is of the gateway's account: credentials carrying it, as a user gives them (no AccountIdWarning).
    ours = new WorkflowClient({ region: REGION, version: '2016-11-23', endpoint, credentials: { key: k.accessKeyId, secret: k.secretAccessKey, accountId: t.config.workflowAccountId } });
    sdk = new SFNClient({ region: REGION, endpoint, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sdk?.destroy();
    ours?.destroy?.();
    await t?.close();
  });

  const define = async (definition: object) =>
    (await ours.createStateMachine({ name: uniq('def'), roleArn: ROLE, definition: JSON.stringify(definition) })).stateMachineArn as string;

  it('starts a job, waits until it succeeds; DescribeExecution answers the same through both clients', async () => {
    const arn = await define({ StartAt: 'A', States: { A: { Type: 'Pass', Parameters: { 'sum.$': 'States.MathAdd($.a, $.b)' }, End: true } } });
    const started = await ours.startExecution({ stateMachineArn: arn, name: 'add', input: JSON.stringify({ a: 40, b: 2 }) });
    expect(started.executionArn).toMatch(/:execution:.*:add$/);
    expect(started.startDate).toBeInstanceOf(Date);
    expect(started['@metadata'].statusCode).toBe(200);
    await ours.waitUntil('ExecutionSucceeded', { executionArn: started.executionArn, '@waiter': { delay: 0.05, maxAttempts: 200 } });
    const mine = await ours.describeExecution({ executionArn: started.executionArn });
    const theirs = await sdk.send(new DescribeExecutionCommand({ executionArn: started.executionArn as string }));
    const { '@metadata': meta, ...fields } = mine;
    const { $metadata: _m, ...theirFields } = theirs;
    expect(fields).toEqual(theirFields);
    expect([fields.status, JSON.parse(fields.output as string)]).toEqual(['SUCCEEDED', { sum: 42 }]);
    expect(meta.headers['x-amzn-requestid']).toBeTruthy();
  });

  it('a failure waiter rejects when the job fails (same status through the SDK)', async () => {
    const arn = await define({ StartAt: 'F', States: { F: { Type: 'Fail', Error: 'Boom', Cause: 'on purpose' } } });
    const { executionArn } = await ours.startExecution({ stateMachineArn: arn });
    const err = await ours.waitUntil('ExecutionSucceeded', { executionArn, '@waiter': { delay: 0.05, maxAttempts: 200 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaiterError);
    expect((err as Error).message).toBe('The ExecutionSucceeded waiter entered a failure state.');
    const theirs = await sdk.send(new DescribeExecutionCommand({ executionArn: executionArn as string }));
    expect([theirs.status, theirs.error, theirs.cause]).toEqual(['FAILED', 'Boom', 'on purpose']);
  });

  it(`pages through ${JOBS} jobs with getPaginator: the same jobs, in the same order, as paginateListExecutions`, async () => {
    const arn = await define({ StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 3600, End: true } } });
    for (let i = 0; i < JOBS; i++) await ours.startExecution({ stateMachineArn: arn, name: `job-${String(i).padStart(3, '0')}` });
    const mine: string[] = [];
    let pages = 0;
    for await (const page of ours.getPaginator('ListExecutions', { stateMachineArn: arn, maxResults: 25 })) {
      pages++;
      for (const e of page.executions as Array<{ executionArn: string }>) mine.push(e.executionArn);
    }
    const theirs: string[] = [];
    for await (const page of paginateListExecutions({ client: sdk, pageSize: 25 }, { stateMachineArn: arn })) theirs.push(...(page.executions ?? []).map((e) => e.executionArn!));
    expect([mine.length, pages]).toEqual([JOBS, Math.ceil(JOBS / 25)]);
    expect(mine).toEqual(theirs);
    expect(new Set(mine).size).toBe(JOBS);
  });

  it('stops a job: ABORTED with the same stop date through both clients; stopping it again is the same error', async () => {
    const arn = await define({ StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 3600, End: true } } });
    const { executionArn } = await ours.startExecution({ stateMachineArn: arn });
    const stopped = await ours.stopExecution({ executionArn, error: 'Halt', cause: 'test' });
    expect(stopped.stopDate).toBeInstanceOf(Date);
    const theirs = await sdk.send(new DescribeExecutionCommand({ executionArn: executionArn as string }));
    expect([theirs.status, theirs.error, theirs.stopDate?.getTime()]).toEqual(['ABORTED', 'Halt', (stopped.stopDate as Date).getTime()]);
    const again = await ours.stopExecution({ executionArn }).catch((e: unknown) => e);
    const againSdk = await sdk.send(new StopExecutionCommand({ executionArn: executionArn as string })).catch((e: { name: string }) => e) as { name: string };
    expect(again).toBeInstanceOf(WorkflowServiceException);
    expect([(again as WorkflowServiceException).code, (again as WorkflowServiceException).statusCode]).toEqual([againSdk.name, 400]);
  });

  it('a service error is a WorkflowServiceException with the code, type, status and request id the SDK sees', async () => {
    const missing = `arn:aws:states:${REGION}:000000000000:execution:nope:${uniq('x')}`;
    const err = (await ours.describeExecution({ executionArn: missing }).catch((e: unknown) => e)) as WorkflowServiceException;
    const sdkErr = (await sdk.send(new DescribeExecutionCommand({ executionArn: missing })).catch((e: unknown) => e)) as ExecutionDoesNotExist;
    expect(err).toBeInstanceOf(WorkflowServiceException);
    expect([err.code, err.type, err.statusCode]).toEqual(['ExecutionDoesNotExist', 'client', 400]);
    expect(sdkErr.name).toBe('ExecutionDoesNotExist');
    expect(err.requestId).toMatch(/\S/);
    expect(sdkErr.$metadata.requestId).toMatch(/\S/);
    expect(err.message).toContain('ExecutionDoesNotExist');
    // Client-side validation stops a bad call before it is sent.
    const invalid = await ours.describeExecution({} as never).catch((e: Error) => e);
    expect((invalid as Error).message).toMatch(/Found 1 error while validating the input provided for the DescribeExecution operation:\n\[executionArn\] is missing and is a required parameter/);
  });
});
