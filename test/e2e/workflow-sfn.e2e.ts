/**
 * The workflow service's wire protocol with the REAL @aws-sdk/client-sfn against the running server: definitions
 * (create/describe/update/list/delete), jobs (start with idempotency, describe, list with paginateListExecutions
 * over 250 jobs, stop, history), each documented error as the SDK's typed error, SigV4 (bad signature, unknown key,
 * stale date, foreign region), and raw requests for what the SDK never sends (bad JSON, wrong types, unknown target).
 * Jobs are not run here (no runner yet): they stay RUNNING until stopped.
 */
import {
  CreateStateMachineCommand,
  DeleteStateMachineCommand,
  DescribeExecutionCommand,
  DescribeStateMachineCommand,
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  ListStateMachinesCommand,
  paginateGetExecutionHistory,
  paginateListExecutions,
  paginateListStateMachines,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
  UpdateStateMachineCommand,
} from '@aws-sdk/client-sfn';
import type { AccountEntity } from '../../entities/identity';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { awsStepFunctionsCli } from '../helpers/workflow-jobs';
import { AccessKey, signedCall, signedHeaders } from '../helpers/sigv4';

const REGION = 'us-east-1';
const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const PASS = JSON.stringify({ Comment: 'three passes', StartAt: 'A', States: { A: { Type: 'Pass', Next: 'B' }, B: { Type: 'Pass', Next: 'C' }, C: { Type: 'Pass', End: true } } });
const PASS2 = JSON.stringify({ StartAt: 'Only', States: { Only: { Type: 'Pass', Result: { ok: true }, End: true } } });

/** The SDK error's name and HTTP status, or 'ok'. */
async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
    return `${err.name} ${err.$metadata?.httpStatusCode}`;
  }
}

async function errorOf(p: Promise<unknown>): Promise<{ name: string; message: string; status?: number }> {
  try {
    await p;
  } catch (e) {
    const err = e as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return { name: err.name, message: err.message, status: err.$metadata?.httpStatusCode };
  }
  throw new Error('expected an error');
}

describe('workflow wire protocol (Step Functions) with @aws-sdk/client-sfn', () => {
  let t: TestApp;
  let fx: IdentityFixtures;
  let alice: AccountEntity;
  let keys: Record<'alice' | 'bob' | 'admin', AccessKey>;
  let sfn: Record<'alice' | 'bob' | 'admin', SFNClient>;

  const client = (key: AccessKey, extra: Record<string, unknown> = {}) =>
    new SFNClient({ region: REGION, endpoint: `${t.url}/workflow`, credentials: key, disableHostPrefix: true, maxAttempts: 1, ...extra });

  beforeAll(async () => {
    // The wire protocol on its own: no runner, so started jobs stay RUNNING until stopped (the runner has its own tests).
    t = await startTestApp({ env: { WORKFLOW_RUNNER: 'off' } });
    fx = new IdentityFixtures(t.db.dataSource);
    alice = await fx.user(uniq('alice'));
    const bob = await fx.user(uniq('bob'));
    const admin = await fx.user(uniq('admin'), { siteAdmin: true });
    const key = async (u: AccountEntity) => {
      const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: u.login });
      return { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
    };
    keys = { alice: await key(alice), bob: await key(bob), admin: await key(admin) };
    sfn = { alice: client(keys.alice), bob: client(keys.bob), admin: client(keys.admin) };
  });
  afterAll(async () => {
    for (const c of Object.values(sfn ?? {})) c.destroy();
    await t?.close();
  });

  const create = (name: string, definition = PASS, c = sfn.alice) => c.send(new CreateStateMachineCommand({ name, definition, roleArn: ROLE }));

  describe('definitions', () => {
    it('create is idempotent for the same name, definition and role; anything else is StateMachineAlreadyExists', async () => {
      const name = uniq('orders');
      const first = await create(name);
      expect(first.stateMachineArn).toBe(`arn:aws:states:us-east-1:000000000000:stateMachine:${name}`);
      expect(first.creationDate).toBeInstanceOf(Date);
      expect(Math.abs(first.creationDate!.getTime() - Date.now())).toBeLessThan(60_000);
      const again = await create(name);
      expect(again.stateMachineArn).toBe(first.stateMachineArn);
      expect(again.creationDate!.getTime()).toBe(first.creationDate!.getTime());
      // Another user creating the same thing gets the same (definitions are shared by the account).
      expect((await create(name, PASS, sfn.bob)).stateMachineArn).toBe(first.stateMachineArn);
      expect(await outcome(create(name, PASS2))).toBe('StateMachineAlreadyExists 400');
      expect(await outcome(sfn.alice.send(new CreateStateMachineCommand({ name, definition: PASS, roleArn: 'arn:aws:iam::000000000000:role/other' })))).toBe(
        'StateMachineAlreadyExists 400',
      );
    });

    it('describe, update (new revision), list by name with paging, delete', async () => {
      const name = uniq('describe');
      const { stateMachineArn } = await create(name);
      const d = await sfn.bob.send(new DescribeStateMachineCommand({ stateMachineArn }));
      expect(d).toMatchObject({ stateMachineArn, name, status: 'ACTIVE', definition: PASS, roleArn: ROLE, type: 'STANDARD' });
      expect(d.creationDate).toBeInstanceOf(Date);

      const u = await sfn.alice.send(new UpdateStateMachineCommand({ stateMachineArn, definition: PASS2 }));
      expect(u.updateDate).toBeInstanceOf(Date);
      expect(u.revisionId).toEqual(expect.any(String));
      expect(u.revisionId).not.toBe(d.revisionId);
      const after = await sfn.alice.send(new DescribeStateMachineCommand({ stateMachineArn }));
      expect(after.definition).toBe(PASS2);
      expect(after.roleArn).toBe(ROLE);
      expect(after.revisionId).toBe(u.revisionId);
      expect(await outcome(sfn.alice.send(new UpdateStateMachineCommand({ stateMachineArn })))).toBe('ValidationException 400');
      expect(await outcome(sfn.alice.send(new UpdateStateMachineCommand({ stateMachineArn, definition: '{"StartAt":"X","States":{}}' })))).toBe(
        'InvalidDefinition 400',
      );

      const names: string[] = [];
      for await (const page of paginateListStateMachines({ client: sfn.alice, pageSize: 1 }, {})) {
        expect(page.stateMachines!.length).toBeLessThanOrEqual(1);
        names.push(...page.stateMachines!.map((s) => s.name!));
      }
      expect(names).toContain(name);
      expect([...names].sort()).toEqual(names);
      expect(new Set(names).size).toBe(names.length);

      await sfn.alice.send(new DeleteStateMachineCommand({ stateMachineArn }));
      expect(await outcome(sfn.alice.send(new DescribeStateMachineCommand({ stateMachineArn })))).toBe('StateMachineDoesNotExist 400');
      // Deleting what does not exist succeeds, as in Step Functions.
      expect(await outcome(sfn.alice.send(new DeleteStateMachineCommand({ stateMachineArn })))).toBe('ok');
    });

    it('refuses bad definitions, names and ARNs with the documented errors', async () => {
      const bad = await errorOf(create(uniq('bad'), '{"StartAt":"A","States":{"A":{"Type":"Pass","Next":"Nowhere"}}}'));
      expect(bad).toMatchObject({ name: 'InvalidDefinition', status: 400 });
      expect(bad.message).toMatch(/MISSING_TRANSITION_TARGET/);
      expect(await outcome(create(uniq('bad'), 'not json'))).toBe('InvalidDefinition 400');
      expect(await outcome(create(uniq('bad'), '[]'))).toBe('InvalidDefinition 400');
      expect(await outcome(create('has space'))).toBe('InvalidName 400');
      expect(await outcome(create('x'.repeat(81)))).toBe('ValidationException 400');
      expect(await outcome(create('semi;colon'))).toBe('InvalidName 400');
      expect(await outcome(sfn.alice.send(new CreateStateMachineCommand({ name: uniq('r'), definition: PASS, roleArn: 'not-an-arn' })))).toBe('InvalidArn 400');
      expect(await outcome(sfn.alice.send(new DescribeStateMachineCommand({ stateMachineArn: 'arn:aws:states:us-east-1:000000000000:execution:a:b' })))).toBe(
        'InvalidArn 400',
      );
      expect(await outcome(sfn.alice.send(new DescribeStateMachineCommand({ stateMachineArn: 'nope' })))).toBe('InvalidArn 400');
      expect(await outcome(sfn.alice.send(new DescribeStateMachineCommand({ stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:absent' })))).toBe(
        'StateMachineDoesNotExist 400',
      );
      // Another account's state machine is no state machine of ours.
      expect(await outcome(sfn.alice.send(new DescribeStateMachineCommand({ stateMachineArn: 'arn:aws:states:eu-west-1:123456789012:stateMachine:x' })))).toBe(
        'StateMachineDoesNotExist 400',
      );
      expect(await outcome(sfn.alice.send(new ListStateMachinesCommand({ maxResults: 1001 })))).toBe('ValidationException 400');
    });
  });

  describe('jobs', () => {
    let smArn: string;
    beforeAll(async () => {
      smArn = (await create(uniq('jobs'))).stateMachineArn!;
    });

    it('StartExecution is idempotent by name and input while the job runs', async () => {
      const name = uniq('run');
      const a = await sfn.alice.send(new StartExecutionCommand({ stateMachineArn: smArn, name, input: '{"n":1}' }));
      expect(a.executionArn).toBe(`${smArn.replace(':stateMachine:', ':execution:')}:${name}`);
      expect(a.startDate).toBeInstanceOf(Date);
      const again = await sfn.alice.send(new StartExecutionCommand({ stateMachineArn: smArn, name, input: '{"n":1}' }));
      expect(again).toMatchObject({ executionArn: a.executionArn, startDate: a.startDate });
      expect(await outcome(sfn.alice.send(new StartExecutionCommand({ stateMachineArn: smArn, name, input: '{"n":2}' })))).toBe('ExecutionAlreadyExists 400');

      const d = await sfn.alice.send(new DescribeExecutionCommand({ executionArn: a.executionArn }));
      expect(d).toMatchObject({ executionArn: a.executionArn, stateMachineArn: smArn, name, status: 'RUNNING', input: '{"n":1}', startDate: a.startDate });
      expect(d.stopDate).toBeUndefined();
      const meta = await sfn.alice.send(new DescribeExecutionCommand({ executionArn: a.executionArn, includedData: 'METADATA_ONLY' }));
      expect(meta.input).toBeUndefined();

      // A generated name when none is given; no input is "{}".
      const anon = await sfn.alice.send(new StartExecutionCommand({ stateMachineArn: smArn }));
      const ad = await sfn.alice.send(new DescribeExecutionCommand({ executionArn: anon.executionArn }));
      expect(ad.name).toMatch(/^[0-9a-f-]{36}$/);
      expect(ad.input).toBe('{}');
    });

    it('refuses bad input, names and state machines with the documented errors', async () => {
      expect(await outcome(sfn.alice.send(new StartExecutionCommand({ stateMachineArn: smArn, input: '{"open":' })))).toBe('InvalidExecutionInput 400');
      expect(await outcome(sfn.alice.send(new StartExecutionCommand({ stateMachineArn: smArn, input: JSON.stringify({ s: 'x'.repeat(262_144) }) })))).toBe(
        'InvalidExecutionInput 400',
      );
      expect(await outcome(sfn.alice.send(new StartExecutionCommand({ stateMachineArn: smArn, name: 'a/b' })))).toBe('InvalidName 400');
      expect(await outcome(sfn.alice.send(new StartExecutionCommand({ stateMachineArn: `${smArn}-absent` })))).toBe('StateMachineDoesNotExist 400');
      expect(await outcome(sfn.alice.send(new StartExecutionCommand({ stateMachineArn: 'arn:aws:iam::000000000000:role/x' })))).toBe('InvalidArn 400');
      const absent = `${smArn.replace(':stateMachine:', ':execution:')}:absent`;
      for (const p of [
        sfn.alice.send(new DescribeExecutionCommand({ executionArn: absent })),
        sfn.alice.send(new StopExecutionCommand({ executionArn: absent })),
        sfn.alice.send(new GetExecutionHistoryCommand({ executionArn: absent })),
      ]) {
        expect(await outcome(p)).toBe('ExecutionDoesNotExist 400');
      }
      expect(await outcome(sfn.alice.send(new DescribeExecutionCommand({ executionArn: smArn })))).toBe('InvalidArn 400');
    });

    it("only a definition's creator or a site admin may update or delete it (AccessDeniedException); others still read and start it", async () => {
      const { stateMachineArn } = await create(uniq('owned'));
      const denied = await errorOf(sfn.bob.send(new UpdateStateMachineCommand({ stateMachineArn, definition: PASS2 })));
      expect(denied).toMatchObject({ name: 'AccessDeniedException', status: 400 });
      expect(await outcome(sfn.bob.send(new DeleteStateMachineCommand({ stateMachineArn })))).toBe('AccessDeniedException 400');
      // Nothing changed: the text alice wrote is what her next job runs.
      const d = await sfn.bob.send(new DescribeStateMachineCommand({ stateMachineArn }));
      expect(d).toMatchObject({ definition: PASS, status: 'ACTIVE' });
      expect(await outcome(sfn.bob.send(new StartExecutionCommand({ stateMachineArn })))).toBe('ok');
      expect(await outcome(sfn.admin.send(new UpdateStateMachineCommand({ stateMachineArn, definition: PASS2 })))).toBe('ok');
      expect(await outcome(sfn.alice.send(new UpdateStateMachineCommand({ stateMachineArn, definition: PASS })))).toBe('ok');
      expect(await outcome(sfn.alice.send(new DeleteStateMachineCommand({ stateMachineArn })))).toBe('ok');
    });

    it("ExecutionAlreadyExists for another user's job says the name is taken and nothing about that job", async () => {
      const name = uniq('guess');
      const { executionArn } = await sfn.alice.send(new StartExecutionCommand({ stateMachineArn: smArn, name, input: '{"secret":"s3cr3t-input"}' }));
      for (const input of ['{"secret":"s3cr3t-input"}', '{}']) {
        const e = await errorOf(sfn.bob.send(new StartExecutionCommand({ stateMachineArn: smArn, name, input })));
        expect(e).toMatchObject({ name: 'ExecutionAlreadyExists', status: 400 });
        expect(e.message).not.toContain(executionArn!);
        expect(e.message).not.toContain(':execution:');
        expect(e.message).not.toContain('s3cr3t');
        expect(e.message).toContain(name);
      }
      // Its starter (and an admin) get Step Functions' own message, which names the job.
      expect((await errorOf(sfn.alice.send(new StartExecutionCommand({ stateMachineArn: smArn, name, input: '{}' })))).message).toContain(executionArn!);
      expect((await errorOf(sfn.admin.send(new StartExecutionCommand({ stateMachineArn: smArn, name, input: '{}' })))).message).toContain(executionArn!);
    });

    it('a job is visible to its starter and to site admins only', async () => {
      const { executionArn } = await sfn.alice.send(new StartExecutionCommand({ stateMachineArn: smArn, name: uniq('private') }));
      expect(await outcome(sfn.bob.send(new DescribeExecutionCommand({ executionArn })))).toBe('ExecutionDoesNotExist 400');
      expect(await outcome(sfn.bob.send(new StopExecutionCommand({ executionArn })))).toBe('ExecutionDoesNotExist 400');
      expect(await outcome(sfn.bob.send(new GetExecutionHistoryCommand({ executionArn })))).toBe('ExecutionDoesNotExist 400');
      expect((await sfn.admin.send(new DescribeExecutionCommand({ executionArn }))).status).toBe('RUNNING');
      const bobs = await sfn.bob.send(new ListExecutionsCommand({ stateMachineArn: smArn }));
      expect(bobs.executions!.map((e) => e.executionArn)).not.toContain(executionArn);
      const admins = await sfn.admin.send(new ListExecutionsCommand({ stateMachineArn: smArn, maxResults: 1000 }));
      expect(admins.executions!.map((e) => e.executionArn)).toContain(executionArn);
    });

    it('StopExecution aborts a running job once; history shows ExecutionStarted then ExecutionAborted', async () => {
      const name = uniq('stop');
      const { executionArn } = await sfn.alice.send(new StartExecutionCommand({ stateMachineArn: smArn, name, input: '{"big":"data"}' }));
      const stopped = await sfn.alice.send(new StopExecutionCommand({ executionArn, error: 'Operator.Stop', cause: 'maintenance window' }));
      expect(stopped.stopDate).toBeInstanceOf(Date);
      const d = await sfn.alice.send(new DescribeExecutionCommand({ executionArn }));
      expect(d).toMatchObject({ status: 'ABORTED', error: 'Operator.Stop', cause: 'maintenance window', stopDate: stopped.stopDate });
      expect(await outcome(sfn.alice.send(new StopExecutionCommand({ executionArn })))).toBe('ValidationException 400');
      // A closed job's name cannot be reused (same input or not).
      expect(await outcome(sfn.alice.send(new StartExecutionCommand({ stateMachineArn: smArn, name, input: '{"big":"data"}' })))).toBe('ExecutionAlreadyExists 400');

      const h = await sfn.alice.send(new GetExecutionHistoryCommand({ executionArn }));
      expect(h.nextToken).toBeUndefined();
      expect(h.events!.map((e) => [e.id, e.previousEventId, e.type])).toEqual([
        [1, 0, 'ExecutionStarted'],
        [2, 0, 'ExecutionAborted'],
      ]);
      expect(h.events![0].executionStartedEventDetails).toEqual({ input: '{"big":"data"}', inputDetails: { truncated: false }, roleArn: ROLE });
      expect(h.events![1].executionAbortedEventDetails).toEqual({ error: 'Operator.Stop', cause: 'maintenance window' });
      expect(h.events![0].timestamp).toBeInstanceOf(Date);

      const rev = await sfn.alice.send(new GetExecutionHistoryCommand({ executionArn, reverseOrder: true }));
      expect(rev.events!.map((e) => e.id)).toEqual([2, 1]);
      const noData = await sfn.alice.send(new GetExecutionHistoryCommand({ executionArn, includeExecutionData: false }));
      expect(noData.events![0].executionStartedEventDetails).toEqual({ inputDetails: { truncated: false }, roleArn: ROLE });

      const paged: number[] = [];
      for await (const page of paginateGetExecutionHistory({ client: sfn.alice, pageSize: 1 }, { executionArn })) paged.push(...page.events!.map((e) => e.id!));
      expect(paged).toEqual([1, 2]);
    });

    it('paginateListExecutions walks 250 jobs newest first, with a status filter and tokens bound to their request', async () => {
      const sm = (await create(uniq('many'))).stateMachineArn!;
      const started: string[] = [];
      for (let i = 0; i < 250; i += 25) {
        const batch = await Promise.all(
          Array.from({ length: 25 }, (_, j) => sfn.alice.send(new StartExecutionCommand({ stateMachineArn: sm, name: `job-${String(i + j).padStart(3, '0')}`, input: `{"i":${i + j}}` }))),
        );
        started.push(...batch.map((b) => b.executionArn!));
      }
      for (const executionArn of started.slice(0, 7)) await sfn.alice.send(new StopExecutionCommand({ executionArn }));

      const seen: Array<{ arn: string; start: number }> = [];
      let pages = 0;
      for await (const page of paginateListExecutions({ client: sfn.alice, pageSize: 100 }, { stateMachineArn: sm })) {
        pages++;
        for (const e of page.executions!) seen.push({ arn: e.executionArn!, start: e.startDate!.getTime() });
      }
      expect(pages).toBe(3);
      expect(seen).toHaveLength(250);
      expect(new Set(seen.map((s) => s.arn))).toEqual(new Set(started));
      for (let i = 1; i < seen.length; i++) expect(seen[i - 1].start).toBeGreaterThanOrEqual(seen[i].start);

      const aborted: string[] = [];
      for await (const page of paginateListExecutions({ client: sfn.alice, pageSize: 3 }, { stateMachineArn: sm, statusFilter: 'ABORTED' })) {
        aborted.push(...page.executions!.map((e) => e.executionArn!));
      }
      expect(new Set(aborted)).toEqual(new Set(started.slice(0, 7)));

      // maxResults 0 is the default (100); tokens are bound to the operation and the filter, and cannot be forged.
      const first = await sfn.alice.send(new ListExecutionsCommand({ stateMachineArn: sm, maxResults: 0 }));
      expect(first.executions).toHaveLength(100);
      const token = first.nextToken!;
      expect(await outcome(sfn.alice.send(new ListExecutionsCommand({ stateMachineArn: sm, statusFilter: 'RUNNING', nextToken: token })))).toBe('InvalidToken 400');
      expect(await outcome(sfn.alice.send(new ListExecutionsCommand({ stateMachineArn: smArn, nextToken: token })))).toBe('InvalidToken 400');
      expect(await outcome(sfn.alice.send(new ListStateMachinesCommand({ nextToken: token })))).toBe('InvalidToken 400');
      const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
      expect(await outcome(sfn.alice.send(new ListExecutionsCommand({ stateMachineArn: sm, nextToken: forged })))).toBe('InvalidToken 400');
      expect(await outcome(sfn.alice.send(new ListExecutionsCommand({ stateMachineArn: sm, nextToken: 'garbage' })))).toBe('InvalidToken 400');
      expect(await outcome(sfn.alice.send(new ListExecutionsCommand({ stateMachineArn: `${sm}-absent` })))).toBe('StateMachineDoesNotExist 400');
    }, 60_000);

    it('a definition deleted while jobs run is DELETING (no new jobs) and goes when its last job ends', async () => {
      const { stateMachineArn } = await create(uniq('doomed'));
      const { executionArn } = await sfn.alice.send(new StartExecutionCommand({ stateMachineArn, name: 'last' }));
      await sfn.alice.send(new DeleteStateMachineCommand({ stateMachineArn }));
      expect((await sfn.alice.send(new DescribeStateMachineCommand({ stateMachineArn }))).status).toBe('DELETING');
      expect(await outcome(sfn.alice.send(new StartExecutionCommand({ stateMachineArn, name: 'another' })))).toBe('StateMachineDeleting 400');
      // Its name cannot be created again while it is being deleted (Step Functions' answer).
      const name = stateMachineArn!.split(':').pop()!;
      expect(await outcome(sfn.alice.send(new CreateStateMachineCommand({ name, roleArn: ROLE, definition: PASS })))).toBe('StateMachineDeleting 400');
      await sfn.alice.send(new StopExecutionCommand({ executionArn }));
      expect(await outcome(sfn.alice.send(new DescribeStateMachineCommand({ stateMachineArn })))).toBe('StateMachineDoesNotExist 400');
      expect(await outcome(sfn.alice.send(new DescribeExecutionCommand({ executionArn })))).toBe('ExecutionDoesNotExist 400');
    });

    it('updating a definition does not change what running jobs run (their snapshot)', async () => {
      const name = uniq('snap');
      const { stateMachineArn } = await create(name);
      const { executionArn } = await sfn.alice.send(new StartExecutionCommand({ stateMachineArn }));
      await sfn.alice.send(new UpdateStateMachineCommand({ stateMachineArn, definition: PASS2 }));
      const rows = (await t.db.dataSource.query(
        t.db.dataSource.options.type === 'postgres' ? 'SELECT definition_text FROM workflow_jobs WHERE arn = $1' : 'SELECT definition_text FROM workflow_jobs WHERE arn = ?',
        [executionArn],
      )) as Array<{ definition_text: string }>;
      expect(rows[0].definition_text).toBe(PASS);
    });
  });

  describe('request signing', () => {
    const list = (c: SFNClient) => c.send(new ListStateMachinesCommand({}));

    it('a wrong secret is InvalidSignatureException, an unknown key UnrecognizedClientException', async () => {
      const wrong = client({ accessKeyId: keys.alice.accessKeyId, secretAccessKey: keys.alice.secretAccessKey + 'x' });
      const e1 = await errorOf(list(wrong));
      expect(e1).toMatchObject({ name: 'InvalidSignatureException', status: 400 });
      expect(e1.message).toMatch(/^The request signature we calculated does not match the signature you provided/);
      expect(e1.message).not.toContain(keys.alice.secretAccessKey);
      const unknown = client({ accessKeyId: 'AKIAUNKNOWNUNKNOWN00', secretAccessKey: 'x'.repeat(40) });
      expect(await errorOf(list(unknown))).toMatchObject({ name: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.', status: 400 });
      // A scope of another region.
      const elsewhere = new SFNClient({ region: 'eu-west-1', endpoint: `${t.url}/workflow`, credentials: keys.alice, disableHostPrefix: true, maxAttempts: 1 });
      expect(await errorOf(list(elsewhere))).toMatchObject({ name: 'InvalidSignatureException', message: expect.stringMatching(/scoped to a valid region/) });
      for (const c of [wrong, unknown, elsewhere]) c.destroy();
    });

    it('a date more than 15 minutes off is "Signature expired"; the SDK corrects its clock skew from the answer and succeeds', async () => {
      const stale = await signedCall(t.url, { key: keys.alice, target: 'AWSStepFunctions.ListStateMachines', signingDate: new Date(Date.now() - 20 * 60_000) });
      expect(stale.status).toBe(400);
      expect(stale.body.__type).toBe('InvalidSignatureException');
      expect(stale.body.message).toMatch(/^Signature expired: \d{8}T\d{6}Z is now earlier than \d{8}T\d{6}Z \(\d{8}T\d{6}Z - 15 min\.\)$/);
      const future = await signedCall(t.url, { key: keys.alice, target: 'AWSStepFunctions.ListStateMachines', signingDate: new Date(Date.now() + 20 * 60_000) });
      expect(future.body.__type).toBe('InvalidSignatureException');
      expect(future.body.message).toMatch(/^Signature not yet current/);
      // The SDK signs 20 minutes in the past, is refused, reads our Date header and retries in time.
      const skewed = client(keys.alice, { systemClockOffset: -20 * 60_000, maxAttempts: 3 });
      expect(await outcome(list(skewed))).toBe('ok');
      skewed.destroy();
    });

    it('no Authorization, a bearer token, or a body changed after signing are refused', async () => {
      const unsigned = await fetch(`${t.url}/workflow`, { method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AWSStepFunctions.ListStateMachines' }, body: '{}' });
      expect(unsigned.status).toBe(400);
      expect(await unsigned.json()).toEqual({ __type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' });
      const token = await fx.classicToken(alice, ['workflow']);
      const bearer = await fetch(`${t.url}/workflow`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AWSStepFunctions.ListStateMachines', authorization: `Bearer ${token}` },
        body: '{}',
      });
      const bb = (await bearer.json()) as { __type: string; message: string };
      expect(bb.__type).toBe('IncompleteSignatureException');
      expect(bb.message).not.toContain(token);
      // Sign one body, send another.
      const h = await signedHeaders(t.url, { key: keys.alice, target: 'AWSStepFunctions.ListStateMachines', body: '{"maxResults":1}' });
      delete h.host;
      const tampered = await fetch(`${t.url}/workflow`, { method: 'POST', headers: h, body: '{"maxResults":2}' });
      expect(((await tampered.json()) as { __type: string }).__type).toBe('InvalidSignatureException');
    });

    it('a signature must cover X-Amz-Target, X-Amz-Date and Content-Type: a signed Describe cannot be replayed as a Stop', async () => {
      const sm = (await create(uniq('replay'))).stateMachineArn!;
      const { executionArn } = await sfn.alice.send(new StartExecutionCommand({ stateMachineArn: sm, name: uniq('replayed') }));
      const body = JSON.stringify({ executionArn });
      // The target left out of the signature: the request it signs (DescribeExecution) is refused too, as AWS would.
      const describe = await signedHeaders(t.url, { key: keys.alice, target: 'AWSStepFunctions.DescribeExecution', body, unsigned: ['x-amz-target'] });
      expect(describe['authorization']).not.toMatch(/x-amz-target/);
      delete describe.host;
      const send = (headers: Record<string, string>) => fetch(`${t.url}/workflow`, { method: 'POST', headers, body });
      for (const target of ['AWSStepFunctions.DescribeExecution', 'AWSStepFunctions.StopExecution']) {
        const r = await send({ ...describe, 'x-amz-target': target });
        expect(r.status).toBe(400);
        expect(r.headers.get('x-amzn-errortype')).toBe('InvalidSignatureException');
        expect(await r.json()).toEqual({ __type: 'InvalidSignatureException', message: "'X-Amz-Target' must be a 'SignedHeader' in the AWS Authorization." });
      }
      for (const [unsigned, shown] of [
        ['x-amz-date', 'X-Amz-Date'],
        ['content-type', 'Content-Type'],
      ]) {
        const h = await signedHeaders(t.url, { key: keys.alice, target: 'AWSStepFunctions.DescribeExecution', body, unsigned: [unsigned] });
        delete h.host;
        expect(await (await send(h)).json()).toEqual({ __type: 'InvalidSignatureException', message: `'${shown}' must be a 'SignedHeader' in the AWS Authorization.` });
      }
      // Signed as the SDKs sign, a changed target no longer matches the signature.
      const signed = await signedHeaders(t.url, { key: keys.alice, target: 'AWSStepFunctions.DescribeExecution', body });
      delete signed.host;
      expect(((await (await send({ ...signed, 'x-amz-target': 'AWSStepFunctions.StopExecution' })).json()) as { __type: string }).__type).toBe('InvalidSignatureException');
      expect((await sfn.alice.send(new DescribeExecutionCommand({ executionArn }))).status).toBe('RUNNING');
      expect((await (await send(signed)).json()) as { status: string }).toMatchObject({ status: 'RUNNING' });
    });
  });

  describe('the AWS CLI', () => {
    // The CLI (botocore) signs on its own, with a header set of its own: it must keep working.
    const cli = (args: string[]) => awsStepFunctionsCli(t.url, keys.alice, args);

    it('creates a state machine, starts, describes and stops a job', async () => {
      const name = uniq('cli');
      const created = await cli(['create-state-machine', '--name', name, '--definition', PASS, '--role-arn', ROLE]);
      expect(created.stderr).toBe('');
      const { stateMachineArn } = JSON.parse(created.stdout) as { stateMachineArn: string };
      const started = JSON.parse((await cli(['start-execution', '--state-machine-arn', stateMachineArn, '--input', '{"n":1}'])).stdout) as { executionArn: string };
      expect(JSON.parse((await cli(['describe-execution', '--execution-arn', started.executionArn])).stdout)).toMatchObject({ status: 'RUNNING', input: '{"n":1}' });
      expect((await cli(['stop-execution', '--execution-arn', started.executionArn])).code).toBe(0);
      expect(JSON.parse((await cli(['describe-execution', '--execution-arn', started.executionArn])).stdout)).toMatchObject({ status: 'ABORTED' });
      const missing = await cli(['describe-execution', '--execution-arn', `${started.executionArn}-absent`]);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toMatch(/ExecutionDoesNotExist/);
    }, 60_000);
  });

  describe('raw requests', () => {
    const call = (target: string | undefined, body: string, path = '/workflow') => signedCall(t.url, { key: keys.alice, target, body, path });

    it('member types and required members are checked with AWS-like ValidationException messages; unknown members are ignored', async () => {
      const missing = await call('AWSStepFunctions.DescribeStateMachine', '{}');
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        __type: 'ValidationException',
        message: "1 validation error detected: Value null at 'stateMachineArn' failed to satisfy constraint: Member must not be null",
      });
      const two = await call('AWSStepFunctions.CreateStateMachine', JSON.stringify({ name: 5, roleArn: ROLE }));
      expect(two.body.__type).toBe('ValidationException');
      expect(two.body.message).toMatch(/^2 validation errors detected: Value '5' at 'name' failed to satisfy constraint: Member must be a string; Value null at 'definition'/);
      const wrongInt = await call('AWSStepFunctions.ListStateMachines', '{"maxResults":"ten"}');
      expect(wrongInt.body).toMatchObject({ __type: 'ValidationException', message: expect.stringMatching(/'maxResults' failed to satisfy constraint: Member must be an integer/) });
      const huge = await call('AWSStepFunctions.DescribeStateMachine', JSON.stringify({ stateMachineArn: 'a'.repeat(100_000) }));
      expect(huge.body.__type).toBe('ValidationException');
      expect(huge.body.message.length).toBeLessThan(300);
      const extra = await call('AWSStepFunctions.ListStateMachines', '{"unknownMember":{"deep":[1,2,3]},"maxResults":1}');
      expect(extra.status).toBe(200);
      expect(extra.body.stateMachines.length).toBeLessThanOrEqual(1);
    });

    it('malformed JSON is SerializationException, an unknown target UnknownOperationException, and POST / serves the same operations', async () => {
      const bad = await call('AWSStepFunctions.ListStateMachines', '{"maxResults":');
      expect(bad.status).toBe(400);
      expect(bad.body.__type).toBe('SerializationException');
      const notObject = await call('AWSStepFunctions.ListStateMachines', '[1]');
      expect(notObject.body.__type).toBe('SerializationException');
      const unknown = await call('AWSStepFunctions.NoSuchOperation', '{}');
      expect(unknown.body.__type).toBe('UnknownOperationException');
      const other = await call('AmazonSQS.ListQueues', '{}');
      expect(other.body.__type).toBe('UnknownOperationException');
      const root = await call('AWSStepFunctions.ListStateMachines', '{}', '/');
      expect(root.status).toBe(200);
      expect(Array.isArray(root.body.stateMachines)).toBe(true);
      const rootSdk = new SFNClient({ region: REGION, endpoint: t.url, credentials: keys.alice, disableHostPrefix: true, maxAttempts: 1 });
      expect(await outcome(rootSdk.send(new ListStateMachinesCommand({})))).toBe('ok');
      rootSdk.destroy();
    });
  });
});
