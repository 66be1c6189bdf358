/**
 * A state machine's loggingConfiguration with the REAL @aws-sdk/client-sfn: CreateStateMachine and
 * UpdateStateMachine take it, checked as Step Functions checks it (InvalidLoggingConfiguration: exactly one
 * destination unless the level is OFF, a log group ARN ending in `:*`; ValidationException for a level outside the
 * enum or a member of the wrong type); DescribeStateMachine answers what was stored (OFF by default); it is part of
 * a revision (an update of it alone is a new revisionId, a version keeps the one it was published with, an identical
 * CreateStateMachine repeat must match it); DescribeStateMachineForExecution answers the one of the revision the
 * execution ran.
 */
import {
  CreateStateMachineCommand,
  DescribeStateMachineCommand,
  DescribeStateMachineForExecutionCommand,
  type LoggingConfiguration,
  PublishStateMachineVersionCommand,
  SFNClient,
  StartExecutionCommand,
  UpdateStateMachineCommand,
} from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { AccessKey, signedCall } from '../helpers/sigv4';
import { errorWithMessageOf, waitForExecution } from '../helpers/workflow-jobs';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const PASS = JSON.stringify({ StartAt: 'P', States: { P: { Type: 'Pass', End: true } } });
const GROUP = 'arn:aws:logs:us-east-1:000000000000:log-group:/aws/vendedlogs/states/orders-Logs:*';
const OTHER_GROUP = 'arn:aws:logs:us-east-1:000000000000:log-group:orders-errors:*';
const all = (logGroupArn = GROUP): LoggingConfiguration => ({ level: 'ALL', includeExecutionData: true, destinations: [{ cloudWatchLogsLogGroup: { logGroupArn } }] });

describe('workflow loggingConfiguration (@aws-sdk/client-sfn)', () => {
  let t: TestApp;
  let sfn: SFNClient;
  let key: AccessKey;

  beforeAll(async () => {
    t = await startTestApp();
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('logcfg'));
    key = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: key, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  const create = (name: string, loggingConfiguration?: LoggingConfiguration) =>
    sfn.send(new CreateStateMachineCommand({ name, definition: PASS, roleArn: ROLE, loggingConfiguration }));
  const describe = async (stateMachineArn: string) => sfn.send(new DescribeStateMachineCommand({ stateMachineArn }));

  it('stores what CreateStateMachine is given and DescribeStateMachine answers it; OFF without execution data by default', async () => {
    const { stateMachineArn } = await create('log-all', all());
    expect((await describe(stateMachineArn!)).loggingConfiguration).toEqual(all());

    const plain = await create('log-none');
    expect((await describe(plain.stateMachineArn!)).loggingConfiguration).toEqual({ level: 'OFF', includeExecutionData: false });

    // OFF may keep its destination; a level alone takes the default for execution data.
    const off = await create('log-off', { level: 'OFF', destinations: [{ cloudWatchLogsLogGroup: { logGroupArn: GROUP } }] });
    expect((await describe(off.stateMachineArn!)).loggingConfiguration).toEqual({ level: 'OFF', includeExecutionData: false, destinations: [{ cloudWatchLogsLogGroup: { logGroupArn: GROUP } }] });
    const errors = await create('log-error', { level: 'ERROR', destinations: [{ cloudWatchLogsLogGroup: { logGroupArn: OTHER_GROUP } }] });
    expect((await describe(errors.stateMachineArn!)).loggingConfiguration).toEqual({ level: 'ERROR', includeExecutionData: false, destinations: [{ cloudWatchLogsLogGroup: { logGroupArn: OTHER_GROUP } }] });

    // The idempotent repeat compares it: the same answers the same machine, another is StateMachineAlreadyExists.
    expect((await create('log-all', all())).stateMachineArn).toBe(stateMachineArn);
    expect(await errorWithMessageOf(create('log-all', { ...all(), level: 'FATAL' }))).toMatch(/^StateMachineAlreadyExists 400/);
    expect(await errorWithMessageOf(create('log-none', { level: 'OFF' }))).toBe('ok');
  });

  it('refuses what Step Functions refuses, with its errors', async () => {
    const one = 'InvalidLoggingConfiguration 400: Invalid Logging Configuration: Must specify exactly one Log Destination.';
    const arn = 'InvalidLoggingConfiguration 400: Invalid Logging Configuration: Must set valid CloudWatch Log Group ARN.';
    expect(await errorWithMessageOf(create('bad-1', { level: 'ERROR' }))).toBe(one);
    expect(await errorWithMessageOf(create('bad-2', { level: 'ALL', destinations: [] }))).toBe(one);
    expect(await errorWithMessageOf(create('bad-3', { level: 'ALL', destinations: [{ cloudWatchLogsLogGroup: { logGroupArn: GROUP } }, { cloudWatchLogsLogGroup: { logGroupArn: OTHER_GROUP } }] }))).toBe(one);
    for (const logGroupArn of [
      GROUP.slice(0, -2), // without :*
      'arn:aws:logs:us-east-1:000000000000:log-group:bad name:*',
      'arn:aws:s3:::bucket',
      'arn:aws:logs:us-east-1:12345:log-group:short-account:*',
    ]) {
      expect(await errorWithMessageOf(create('bad-4', { level: 'ALL', destinations: [{ cloudWatchLogsLogGroup: { logGroupArn } }] }))).toBe(arn);
    }
    expect(await errorWithMessageOf(create('bad-5', { level: 'FATAL', destinations: [{}] }))).toBe(arn);
    expect(await errorWithMessageOf(create('bad-6', { level: 'DEBUG' as LoggingConfiguration['level'], destinations: all().destinations }))).toMatch(
      /^ValidationException 400: 1 validation error detected: Value 'DEBUG' at 'loggingConfiguration.level' failed to satisfy constraint: Member must satisfy enum value set: \[ALL, ERROR, FATAL, OFF\]/,
    );
    // None of them was created.
    for (const n of ['bad-1', 'bad-2', 'bad-3', 'bad-4', 'bad-5', 'bad-6']) {
      expect(await errorWithMessageOf(describe(`arn:aws:states:us-east-1:000000000000:stateMachine:${n}`))).toMatch(/^StateMachineDoesNotExist/);
    }
    // Members of the wrong type, sent raw (signed): the body's own ValidationException, never a 500.
    for (const [loggingConfiguration, problem] of [
      [{ level: 'ALL', destinations: 'abc' }, "Value 'abc' at 'loggingConfiguration.destinations' failed to satisfy constraint: Member must be a list"],
      [{ level: 'ALL', includeExecutionData: 'yes', destinations: all().destinations }, "at 'loggingConfiguration.includeExecutionData' failed to satisfy constraint: Member must be a boolean"],
      ['ALL', "at 'loggingConfiguration' failed to satisfy constraint: Member must be a structure"],
      [{ level: 'ALL', destinations: [{ cloudWatchLogsLogGroup: { logGroupArn: 7 } }] }, "at 'loggingConfiguration.destinations.1.member.cloudWatchLogsLogGroup.logGroupArn' failed to satisfy constraint: Member must be a string"],
    ] as const) {
      const res = await signedCall(t.url, {
        key,
        target: 'AWSStepFunctions.CreateStateMachine',
        body: JSON.stringify({ name: 'raw', definition: PASS, roleArn: ROLE, loggingConfiguration }),
      });
      expect(res.status).toBe(400);
      expect(res.body.__type).toBe('ValidationException');
      expect(res.body.message).toContain(problem);
    }
  });

  it('UpdateStateMachine replaces it (a new revision); versions keep theirs; executions answer their revision’s', async () => {
    const { stateMachineArn } = await create('log-upd');
    const before = await describe(stateMachineArn!);
    const v1 = await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn }));

    const up = await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, loggingConfiguration: all() }));
    expect(up.revisionId).not.toBe(before.revisionId);
    const after = await describe(stateMachineArn!);
    expect(after).toMatchObject({ loggingConfiguration: all(), revisionId: up.revisionId, definition: PASS });
    // The same again changes nothing; members left out take their defaults.
    expect((await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, loggingConfiguration: all() }))).revisionId).toBe(up.revisionId);
    const v2 = await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn }));
    const partial = await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, loggingConfiguration: { level: 'ERROR', destinations: [{ cloudWatchLogsLogGroup: { logGroupArn: OTHER_GROUP } }] } }));
    expect((await describe(stateMachineArn!)).loggingConfiguration).toEqual({ level: 'ERROR', includeExecutionData: false, destinations: [{ cloudWatchLogsLogGroup: { logGroupArn: OTHER_GROUP } }] });
    expect(await errorWithMessageOf(sfn.send(new UpdateStateMachineCommand({ stateMachineArn, loggingConfiguration: { level: 'ALL' } })))).toMatch(/^InvalidLoggingConfiguration 400/);
    expect((await describe(stateMachineArn!)).revisionId).toBe(partial.revisionId);

    // Versions: each the configuration of its revision.
    expect((await describe(v1.stateMachineVersionArn!)).loggingConfiguration).toEqual({ level: 'OFF', includeExecutionData: false });
    expect((await describe(v2.stateMachineVersionArn!)).loggingConfiguration).toEqual(all());

    // Executions: started from the version, from the latest revision, and from a revision replaced since.
    const start = async (arn: string) => {
      const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn: arn }));
      await waitForExecution(sfn, executionArn!);
      return executionArn!;
    };
    const forExecution = async (executionArn: string) => (await sfn.send(new DescribeStateMachineForExecutionCommand({ executionArn }))).loggingConfiguration;
    const viaV2 = await start(v2.stateMachineVersionArn!);
    const latest = await start(stateMachineArn!);
    expect(await forExecution(viaV2)).toEqual(all());
    expect(await forExecution(latest)).toEqual({ level: 'ERROR', includeExecutionData: false, destinations: [{ cloudWatchLogsLogGroup: { logGroupArn: OTHER_GROUP } }] });
    await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, loggingConfiguration: { level: 'OFF' } }));
    expect((await describe(stateMachineArn!)).loggingConfiguration).toEqual({ level: 'OFF', includeExecutionData: false });
    // The revision `latest` ran is replaced and its configuration not kept: left out rather than guessed.
    expect(await forExecution(latest)).toBeUndefined();
    expect(await forExecution(viaV2)).toEqual(all());
  });
});
