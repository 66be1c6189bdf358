/**
 * The workflow service in the graph, over HTTP with Bearer tokens: definitions (create idempotent, read, update,
 * list with paging, delete at once or DELETING while jobs run), jobs (start idempotent by name, list with status
 * and definition filters and paging, a definition's jobs, history with paging and reverse, stop), the errors as
 * extensions.code (+ the workflow domainCode), access (a job is its starter's and site admins'; workflow scope or
 * permission needed; read-only fine-grained tokens cannot write), node(id:), a flat statement count for a page of
 * jobs with their definition and starter, and both transports on one database: what GraphQL starts the real
 * @aws-sdk/client-sfn sees, and the other way round. Jobs are not run here (no runner yet): they stay RUNNING until
 * stopped.
 */
import {
  CreateStateMachineCommand,
  DescribeExecutionCommand,
  DescribeStateMachineCommand,
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import type { AccountEntity } from '../../entities/identity';
import {
  CreateWorkflowDefinitionDocument,
  DeleteWorkflowDefinitionDocument,
  StartWorkflowJobDocument,
  StopWorkflowJobDocument,
  UpdateWorkflowDefinitionDocument,
  WorkflowDefinitionDocument,
  WorkflowDefinitionsDocument,
  WorkflowJobDocument,
  WorkflowJobsDocument,
} from '../__generated__/graphql';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { expectParity } from '../helpers/parity';
import { describeStatements, repeatedStatements, SqlLog } from '../helpers/sql-log';

const REGION = 'us-east-1';
const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const ROLE2 = 'arn:aws:iam::000000000000:role/other-runner';
const PASS = JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass', Next: 'B' }, B: { Type: 'Pass', End: true } } });
const PASS2 = JSON.stringify({ StartAt: 'Only', States: { Only: { Type: 'Pass', Result: { ok: true }, End: true } } });

type Who = 'alice' | 'bob' | 'admin' | 'carol' | 'dave' | 'anonymous';
type GqlError = { message: string; extensions?: Record<string, unknown>; path?: unknown[] };

describe('workflow GraphQL', () => {
  let t: TestApp;
  const sql = new SqlLog();
  const tokens: Partial<Record<Who, string>> = {};
  let users: Record<'alice' | 'bob' | 'admin', AccountEntity>;
  let sfn: Record<'alice' | 'bob', SFNClient>;

  async function send<R, V>(doc: TypedDocumentNode<R, V> | string, variables: V | Record<string, unknown>, who: Who) {
    const r = await gql<R>(t.url, typeof doc === 'string' ? doc : print(doc), variables as Record<string, unknown>, tokens[who as keyof typeof tokens]);
    expect(r.status).toBeLessThan(500);
    return r.body;
  }
  /** The data of an answer without errors (a document's result type; `any` for a query string). */
  async function ok<R, V>(doc: TypedDocumentNode<R, V>, variables: V, who?: Who): Promise<R>;
  async function ok(doc: string, variables: Record<string, unknown>, who?: Who): Promise<any>;
  async function ok<R, V>(doc: TypedDocumentNode<R, V> | string, variables: V | Record<string, unknown>, who: Who = 'alice'): Promise<R> {
    const body = await send(doc, variables, who);
    expect(body.errors).toBeUndefined();
    return body.data as R;
  }
  async function fails<R, V>(doc: TypedDocumentNode<R, V> | string, variables: V | Record<string, unknown>, who: Who = 'alice'): Promise<GqlError> {
    const body = await send(doc, variables, who);
    expect(body.errors?.length).toBeGreaterThan(0);
    return body.errors![0] as GqlError;
  }
  /** "CODE" or "CODE/DOMAIN_CODE" of the first error. */
  async function code<R, V>(doc: TypedDocumentNode<R, V> | string, variables: V | Record<string, unknown>, who: Who = 'alice'): Promise<string> {
    const e = await fails(doc, variables, who);
    return [e.extensions?.code, e.extensions?.domainCode].filter(Boolean).join('/');
  }

  const createDef = async (name: string, definition = PASS, who: Who = 'alice') =>
    (await ok(CreateWorkflowDefinitionDocument, { input: { name, definition, roleArn: ROLE } }, who)).createWorkflowDefinition.definition;
  const start = async (definitionArn: string, extra: { name?: string; input?: string } = {}, who: Who = 'alice') =>
    (await ok(StartWorkflowJobDocument, { input: { definitionArn, ...extra } }, who)).startWorkflowJob;
  const stop = async (arn: string, extra: { error?: string; cause?: string } = {}, who: Who = 'alice') =>
    (await ok(StopWorkflowJobDocument, { input: { arn, ...extra } }, who)).stopWorkflowJob.job;
  const jobArns = async (filter: Record<string, unknown> | undefined, who: Who = 'alice', first = 100) =>
    (await ok(WorkflowJobsDocument, { filter, first }, who)).workflowJobs.nodes.map((n) => n.arn);

  beforeAll(async () => {
    // The API on its own: no runner, so started jobs stay RUNNING until stopped (workflow-runner.e2e.ts runs them).
    t = await startTestApp({ logger: sql, env: { WORKFLOW_RUNNER: 'off' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    users = { alice: await fx.user(uniq('alice')), bob: await fx.user(uniq('bob')), admin: await fx.user(uniq('admin'), { siteAdmin: true }) };
    tokens.alice = await fx.classicToken(users.alice, ['workflow']);
    tokens.bob = await fx.classicToken(users.bob, ['workflow', 'repo']);
    tokens.admin = await fx.classicToken(users.admin, ['workflow']);
    // A fine-grained token that may read workflows only; a classic token without the workflow scope.
    const carol = await fx.user(uniq('carol'));
    const repo = await fx.repo(carol);
    tokens.carol = await fx.fineGrainedToken(carol, [`${carol.login}/${repo.name}`], { workflow: 'read' });
    tokens.dave = await fx.classicToken(await fx.user(uniq('dave')), ['repo']);
    const key = async (u: AccountEntity) => {
      const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: u.login });
      return { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
    };
    const client = async (u: AccountEntity) =>
      new SFNClient({ region: REGION, endpoint: `${t.url}/workflow`, credentials: await key(u), disableHostPrefix: true, maxAttempts: 1 });
    sfn = { alice: await client(users.alice), bob: await client(users.bob) };
  }, 60_000);

  afterAll(async () => {
    for (const c of Object.values(sfn ?? {})) c.destroy();
    await t?.close();
  });

  describe('definitions', () => {
    it('create (idempotent for the same content), read by ARN and by node id, update with a new revision', async () => {
      const name = uniq('orders');
      const d = await createDef(name);
      expect(d).toMatchObject({
        arn: `arn:aws:states:us-east-1:000000000000:stateMachine:${name}`,
        name,
        status: 'ACTIVE',
        definition: PASS,
        roleArn: ROLE,
        type: 'STANDARD',
      });
      expect(Math.abs(Date.parse(d.createdAt) - Date.now())).toBeLessThan(60_000);
      // The same again (by anyone: definitions are shared) is the same definition.
      expect((await createDef(name, PASS, 'bob')).id).toBe(d.id);
      expect(await code(CreateWorkflowDefinitionDocument, { input: { name, definition: PASS2, roleArn: ROLE } })).toBe('CONFLICT/STATE_MACHINE_ALREADY_EXISTS');

      const { jobs, ...read } = (await ok(WorkflowDefinitionDocument, { arn: d.arn }, 'bob')).workflowDefinition!;
      expect(read).toEqual(d);
      expect(jobs).toEqual({ totalCount: 0, nodes: [] });
      const node = await ok(`query($id: ID!) { node(id: $id) { __typename ... on WorkflowDefinition { arn name } } }`, { id: d.id });
      expect(node).toEqual({ node: { __typename: 'WorkflowDefinition', arn: d.arn, name } });

      const u = (await ok(UpdateWorkflowDefinitionDocument, { input: { arn: d.arn, definition: PASS2 } })).updateWorkflowDefinition.definition;
      expect(u).toMatchObject({ id: d.id, definition: PASS2, roleArn: ROLE });
      expect(u.revisionId).not.toBe(d.revisionId);
      expect(Date.parse(u.updatedAt)).toBeGreaterThanOrEqual(Date.parse(d.updatedAt));
      const u2 = (await ok(UpdateWorkflowDefinitionDocument, { input: { arn: d.arn, roleArn: ROLE2 } })).updateWorkflowDefinition.definition;
      expect(u2).toMatchObject({ definition: PASS2, roleArn: ROLE2 });
      expect(u2.revisionId).not.toBe(u.revisionId);
      expect((await ok(WorkflowDefinitionDocument, { arn: d.arn })).workflowDefinition).toMatchObject(u2);
    });

    it('refuses bad definitions, names, roles and ARNs as BAD_USER_INPUT; an unknown ARN is NOT_FOUND', async () => {
      const input = (over: Record<string, unknown>) => ({ input: { name: uniq('bad'), definition: PASS, roleArn: ROLE, ...over } });
      const bad = await fails(CreateWorkflowDefinitionDocument, input({ definition: '{"StartAt":"A","States":{"A":{"Type":"Pass","Next":"Nowhere"}}}' }));
      expect(bad.extensions).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'INVALID_DEFINITION' });
      expect(bad.message).toMatch(/MISSING_TRANSITION_TARGET/);
      expect(await code(CreateWorkflowDefinitionDocument, input({ definition: 'not json' }))).toBe('BAD_USER_INPUT/INVALID_DEFINITION');
      expect(await code(CreateWorkflowDefinitionDocument, input({ name: 'has space' }))).toBe('BAD_USER_INPUT/INVALID_NAME');
      expect(await code(CreateWorkflowDefinitionDocument, input({ name: 'x'.repeat(81) }))).toBe('BAD_USER_INPUT');
      expect(await code(CreateWorkflowDefinitionDocument, input({ roleArn: 'not-an-arn' }))).toBe('BAD_USER_INPUT/INVALID_ARN');
      // EXPRESS machines take no activities (nor .sync, .waitForTaskToken, Distributed Map).
      const activity = '{"StartAt":"A","States":{"A":{"Type":"Task","Resource":"arn:aws:states:us-east-1:000000000000:activity:w","End":true}}}';
      expect(await code(CreateWorkflowDefinitionDocument, input({ type: 'EXPRESS', definition: activity }))).toBe('BAD_USER_INPUT/INVALID_DEFINITION');

      expect(await code(WorkflowDefinitionDocument, { arn: 'nope' })).toBe('BAD_USER_INPUT/INVALID_ARN');
      expect(await code(WorkflowDefinitionDocument, { arn: 'arn:aws:states:us-east-1:000000000000:execution:a:b' })).toBe('BAD_USER_INPUT/INVALID_ARN');
      const absent = await fails(WorkflowDefinitionDocument, { arn: 'arn:aws:states:us-east-1:000000000000:stateMachine:absent' });
      expect(absent.extensions).toMatchObject({ code: 'NOT_FOUND', domainCode: 'STATE_MACHINE_DOES_NOT_EXIST' });
      expect(absent.path).toEqual(['workflowDefinition']);
      // Another region's or account's definition is none of ours.
      expect(await code(WorkflowDefinitionDocument, { arn: 'arn:aws:states:eu-west-1:123456789012:stateMachine:x' })).toBe('NOT_FOUND/STATE_MACHINE_DOES_NOT_EXIST');

      const d = await createDef(uniq('upd'));
      expect(await code(UpdateWorkflowDefinitionDocument, { input: { arn: d.arn } })).toBe('BAD_USER_INPUT');
      expect(await code(UpdateWorkflowDefinitionDocument, { input: { arn: d.arn, definition: '{"StartAt":"X","States":{}}' } })).toBe('BAD_USER_INPUT/INVALID_DEFINITION');
      // Nothing echoes a megabyte back.
      const huge = await fails(WorkflowDefinitionDocument, { arn: 'a'.repeat(1_000_000) });
      expect(huge.extensions?.code).toBe('BAD_USER_INPUT');
      expect(JSON.stringify(huge).length).toBeLessThan(2_000);
    });

    it('lists definitions by name with cursor paging', async () => {
      for (let i = 0; i < 3; i++) await createDef(uniq('list'));
      const names: string[] = [];
      let after: string | null | undefined;
      let total = -1;
      for (let pages = 0; pages < 100; pages++) {
        const c = (await ok(WorkflowDefinitionsDocument, { first: 2, after }, 'bob')).workflowDefinitions;
        expect(c.nodes.length).toBeLessThanOrEqual(2);
        total = c.totalCount;
        names.push(...c.nodes.map((n) => n.name));
        if (!c.pageInfo.hasNextPage) break;
        after = c.pageInfo.endCursor;
      }
      expect(names.length).toBe(total);
      expect(total).toBeGreaterThanOrEqual(3);
      expect(new Set(names).size).toBe(names.length);
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(await code(WorkflowDefinitionsDocument, { first: 2, after: 'not-a-cursor' })).toBe('BAD_USER_INPUT/INVALID_CURSOR');
      expect(await code(WorkflowDefinitionsDocument, { first: 101 })).toBe('BAD_USER_INPUT');
    });

    it('delete: at once without running jobs; DELETING (no new jobs) while one runs, gone when it stops', async () => {
      const idle = await createDef(uniq('idle'));
      const ended = await start(idle.arn);
      await stop(ended.job.arn);
      const gone = (await ok(DeleteWorkflowDefinitionDocument, { input: { arn: idle.arn } })).deleteWorkflowDefinition;
      expect(gone).toEqual({ arn: idle.arn, definition: null });
      expect(await code(WorkflowDefinitionDocument, { arn: idle.arn })).toBe('NOT_FOUND/STATE_MACHINE_DOES_NOT_EXIST');
      // Its ended jobs went with it.
      expect(await code(WorkflowJobDocument, { arn: ended.job.arn })).toBe('NOT_FOUND/EXECUTION_DOES_NOT_EXIST');
      // Deleting what does not exist succeeds, as in Step Functions.
      expect((await ok(DeleteWorkflowDefinitionDocument, { input: { arn: idle.arn } })).deleteWorkflowDefinition.definition).toBeNull();

      const busy = await createDef(uniq('busy'));
      const running = await start(busy.arn);
      const deleting = (await ok(DeleteWorkflowDefinitionDocument, { input: { arn: busy.arn } })).deleteWorkflowDefinition;
      expect(deleting.definition).toEqual({ arn: busy.arn, status: 'DELETING' });
      expect((await ok(WorkflowDefinitionDocument, { arn: busy.arn })).workflowDefinition!.status).toBe('DELETING');
      expect(await code(StartWorkflowJobDocument, { input: { definitionArn: busy.arn } })).toBe('CONFLICT/STATE_MACHINE_DELETING');
      expect(await code(UpdateWorkflowDefinitionDocument, { input: { arn: busy.arn, roleArn: ROLE2 } })).toBe('CONFLICT/STATE_MACHINE_DELETING');
      await stop(running.job.arn);
      expect(await code(WorkflowDefinitionDocument, { arn: busy.arn })).toBe('NOT_FOUND/STATE_MACHINE_DOES_NOT_EXIST');
    });
  });

  describe('jobs', () => {
    let a: { arn: string; id: string };
    let b: { arn: string; id: string };
    const aJobs: string[] = [];
    const bJobs: string[] = [];
    const stopped: string[] = [];

    beforeAll(async () => {
      a = await createDef(uniq('jobsA'));
      b = await createDef(uniq('jobsB'));
      for (let i = 0; i < 5; i++) aJobs.push((await start(a.arn, { name: `a-${i}`, input: JSON.stringify({ i }) })).job.arn);
      for (let i = 0; i < 2; i++) bJobs.push((await start(b.arn, { name: `b-${i}` })).job.arn);
      for (const arn of [aJobs[1], aJobs[3]]) {
        await stop(arn, { error: 'Cancelled', cause: 'by the test' });
        stopped.push(arn);
      }
    });

    it('start: a RUNNING job with its input, definition and starter; idempotent by name and input; the documented refusals', async () => {
      const name = uniq('run');
      const s = await start(a.arn, { name, input: '{"n":1}' });
      expect(s.created).toBe(true);
      expect(s.job).toMatchObject({
        arn: `${a.arn.replace(':stateMachine:', ':execution:')}:${name}`,
        name,
        status: 'RUNNING',
        input: '{"n":1}',
        output: null,
        error: null,
        cause: null,
        stoppedAt: null,
        currentState: null,
        startedBy: { login: users.alice.login },
        definition: { arn: a.arn },
      });
      const again = await start(a.arn, { name, input: '{"n":1}' });
      expect(again).toEqual({ ...s, created: false });
      expect(await code(StartWorkflowJobDocument, { input: { definitionArn: a.arn, name, input: '{"n":2}' } })).toBe('CONFLICT/EXECUTION_ALREADY_EXISTS');

      const anon = await start(a.arn);
      expect(anon.job.name).toMatch(/^[0-9a-f-]{36}$/);
      expect(anon.job.input).toBe('{}');

      expect(await code(StartWorkflowJobDocument, { input: { definitionArn: a.arn, input: '{"open":' } })).toBe('BAD_USER_INPUT/INVALID_EXECUTION_INPUT');
      expect(await code(StartWorkflowJobDocument, { input: { definitionArn: a.arn, input: JSON.stringify({ s: 'é'.repeat(140_000) }) } })).toBe(
        'BAD_USER_INPUT/INVALID_EXECUTION_INPUT',
      );
      expect(await code(StartWorkflowJobDocument, { input: { definitionArn: a.arn, name: 'a/b' } })).toBe('BAD_USER_INPUT/INVALID_NAME');
      expect(await code(StartWorkflowJobDocument, { input: { definitionArn: `${a.arn}-absent` } })).toBe('NOT_FOUND/STATE_MACHINE_DOES_NOT_EXIST');
      expect(await code(StartWorkflowJobDocument, { input: { definitionArn: ROLE } })).toBe('BAD_USER_INPUT/INVALID_ARN');
      await stop(s.job.arn);
      await stop(anon.job.arn);
    });

    it('start: a generated name is not looked up (no job can have it); a given name is', async () => {
      const c = await createDef(uniq('jobsC'));
      const byName = (statements: Array<{ sql: string }>) =>
        statements.filter((x) => /^\s*SELECT/i.test(x.sql) && /FROM "?workflow_jobs"?/i.test(x.sql) && /"?name"? = /.test(x.sql));
      const unnamed = await sql.record(() => start(c.arn));
      expect(unnamed.result.created).toBe(true);
      expect(byName(unnamed.statements)).toEqual([]);
      const name = uniq('given');
      const named = await sql.record(() => start(c.arn, { name }));
      expect(named.result.created).toBe(true);
      expect(byName(named.statements)).toHaveLength(1);
      // Many generated names, every one its own job.
      const many = await Promise.all(Array.from({ length: 20 }, () => start(c.arn)));
      expect(new Set(many.map((m) => m.job.name)).size).toBe(20);
      for (const j of [unnamed.result, named.result, ...many]) await stop(j.job.arn);
    });

    it('lists with status and definition filters, newest first, with cursor paging', async () => {
      const mine = [...aJobs, ...bJobs];
      const all = await jobArns(undefined);
      for (const arn of mine) expect(all).toContain(arn);
      // Newest first: the order they were started in, reversed.
      const order = all.filter((x) => mine.includes(x));
      expect(order).toEqual([...bJobs].reverse().concat([...aJobs].reverse()));

      expect(await jobArns({ definition: a.arn })).toEqual(expect.arrayContaining(aJobs));
      expect((await jobArns({ definition: a.arn })).filter((x) => !x.includes(':execution:' + a.arn.split(':').pop() + ':'))).toEqual([]);
      expect(await jobArns({ definition: b.arn })).toEqual([...bJobs].reverse());
      expect((await jobArns({ definition: a.arn, status: 'ABORTED' })).filter((x) => aJobs.includes(x)).sort()).toEqual([...stopped].sort());
      expect(await jobArns({ definition: b.arn, status: 'ABORTED' })).toEqual([]);
      expect(await jobArns({ definition: b.arn, status: 'RUNNING' })).toEqual([...bJobs].reverse());
      const aborted = await jobArns({ status: 'ABORTED' });
      for (const x of stopped) expect(aborted).toContain(x);
      for (const x of bJobs) expect(aborted).not.toContain(x);

      const seen: string[] = [];
      let after: string | null | undefined;
      let total = -1;
      for (let pages = 0; pages < 100; pages++) {
        const c = (await ok(WorkflowJobsDocument, { filter: { definition: a.arn }, first: 2, after })).workflowJobs;
        total = c.totalCount;
        seen.push(...c.nodes.map((n) => n.arn));
        if (!c.pageInfo.hasNextPage) break;
        after = c.pageInfo.endCursor;
      }
      expect(seen).toEqual(await jobArns({ definition: a.arn }));
      expect(seen.length).toBe(total);

      // A definition's own jobs field, with a status filter.
      const def = (await ok(WorkflowDefinitionDocument, { arn: b.arn, jobsFirst: 10, jobsStatus: 'RUNNING' })).workflowDefinition!;
      expect(def.jobs.totalCount).toBe(2);
      expect(def.jobs.nodes.map((n) => n.arn)).toEqual([...bJobs].reverse());

      expect(await code(WorkflowJobsDocument, { filter: { definition: 'nope' } })).toBe('BAD_USER_INPUT/INVALID_ARN');
      expect(await code(WorkflowJobsDocument, { filter: { definition: `${a.arn}-absent` } })).toBe('NOT_FOUND/STATE_MACHINE_DOES_NOT_EXIST');
      expect(await code(WorkflowJobsDocument, { filter: { status: 'PAUSED' } })).toBe('BAD_USER_INPUT');
      expect(await code(WorkflowJobsDocument, { after: Buffer.from(JSON.stringify(['yesterday', 1])).toString('base64url') })).toBe('BAD_USER_INPUT/INVALID_CURSOR');
    });

    it('stop: ABORTED with the error and cause; a job that ended cannot be stopped again', async () => {
      const s = await start(b.arn, { name: uniq('stop') });
      const job = await stop(s.job.arn, { error: 'Manual', cause: 'operator said so' });
      expect(job).toMatchObject({ arn: s.job.arn, status: 'ABORTED', error: 'Manual', cause: 'operator said so' });
      expect(Date.parse(job.stoppedAt!)).toBeGreaterThanOrEqual(Date.parse(job.startedAt));
      expect(await code(StopWorkflowJobDocument, { input: { arn: s.job.arn } })).toBe('BAD_USER_INPUT/EXECUTION_NOT_RUNNING');
      expect(await code(StopWorkflowJobDocument, { input: { arn: `${s.job.arn}x` } })).toBe('NOT_FOUND/EXECUTION_DOES_NOT_EXIST');
      expect(await code(StopWorkflowJobDocument, { input: { arn: s.job.arn, error: 'e'.repeat(257) } })).toBe('BAD_USER_INPUT');
    });

    it('history: events in order or reversed, with cursor paging and details as JSON', async () => {
      const arn = stopped[0];
      const j = (await ok(WorkflowJobDocument, { arn })).workflowJob!;
      expect(j.status).toBe('ABORTED');
      const events = j.history.nodes;
      expect(j.history.totalCount).toBe(2);
      expect(events.map((e) => [e.id, e.previousEventId, e.type])).toEqual([
        [1, 0, 'ExecutionStarted'],
        [2, 0, 'ExecutionAborted'],
      ]);
      expect(events[0].details).toEqual({ executionStartedEventDetails: { input: JSON.stringify({ i: 1 }), inputDetails: { truncated: false }, roleArn: ROLE } });
      expect(events[1].details).toEqual({ executionAbortedEventDetails: { error: 'Cancelled', cause: 'by the test' } });
      expect(Date.parse(events[1].timestamp)).toBe(Date.parse(j.stoppedAt!));

      const rev = (await ok(WorkflowJobDocument, { arn, reverse: true })).workflowJob!.history.nodes.map((e) => e.id);
      expect(rev).toEqual([2, 1]);
      const p1 = (await ok(WorkflowJobDocument, { arn, historyFirst: 1 })).workflowJob!.history;
      expect(p1.nodes.map((e) => e.id)).toEqual([1]);
      expect(p1.pageInfo.hasNextPage).toBe(true);
      const p2 = (await ok(WorkflowJobDocument, { arn, historyFirst: 1, historyAfter: p1.pageInfo.endCursor })).workflowJob!.history;
      expect(p2.nodes.map((e) => e.id)).toEqual([2]);
      expect(p2.pageInfo.hasNextPage).toBe(false);
      const r1 = (await ok(WorkflowJobDocument, { arn, historyFirst: 1, reverse: true })).workflowJob!.history;
      const r2 = (await ok(WorkflowJobDocument, { arn, historyFirst: 1, reverse: true, historyAfter: r1.pageInfo.endCursor })).workflowJob!.history;
      expect([...r1.nodes, ...r2.nodes].map((e) => e.id)).toEqual([2, 1]);
      expect(await code(WorkflowJobDocument, { arn, historyAfter: 'garbage!' })).toBe('BAD_USER_INPUT/INVALID_CURSOR');
    });

    it('a page of jobs with definition and starter costs the same statements for 2 jobs as for 20 (loaders, no N+1)', async () => {
      const c = await createDef(uniq('nplus1'));
      for (let i = 0; i < 10; i++) await start(c.arn, { name: `alice-${i}` });
      for (let i = 0; i < 10; i++) await start(c.arn, { name: `bob-${i}` }, 'bob');
      const other = await createDef(uniq('nplus1other'));
      await start(other.arn, { name: 'x' }, 'bob');
      const query = `query($first: Int) { workflowJobs(first: $first) { totalCount nodes { arn definition { name } startedBy { login } } } }`;
      const count = async (first: number) => {
        const { result, statements } = await sql.record(() => ok(query, { first }, 'admin'));
        const nodes = (result as { workflowJobs: { nodes: Array<{ definition: { name: string }; startedBy: { login: string } }> } }).workflowJobs.nodes;
        expect(nodes.length).toBe(first);
        expect(repeatedStatements(statements)).toEqual([]);
        return { n: statements.length, nodes, text: describeStatements(statements) };
      };
      const small = await count(2);
      const large = await count(20);
      // The 20 newest: both starters and both definitions appear.
      expect(new Set(large.nodes.map((n) => n.startedBy.login))).toEqual(new Set([users.alice.login, users.bob.login]));
      expect(new Set(large.nodes.map((n) => n.definition.name)).size).toBe(2);
      expect(large.n).toBe(small.n);
      expect(large.n).toBeLessThanOrEqual(8);
      if (large.n !== small.n) throw new Error(large.text);
    });
  });

  describe('access', () => {
    let def: { arn: string };
    let alicesJob: { arn: string; id: string };

    beforeAll(async () => {
      def = await createDef(uniq('access'));
      alicesJob = (await start(def.arn, { name: 'alices' })).job;
    });

    it("another user's job does not exist for them; a site admin sees and may stop it", async () => {
      const node = `query($id: ID!) { node(id: $id) { __typename ... on WorkflowJob { arn } } }`;
      expect(await code(WorkflowJobDocument, { arn: alicesJob.arn }, 'bob')).toBe('NOT_FOUND/EXECUTION_DOES_NOT_EXIST');
      expect(await jobArns({ definition: def.arn }, 'bob')).toEqual([]);
      expect(await jobArns(undefined, 'bob')).not.toContain(alicesJob.arn);
      expect((await ok(node, { id: alicesJob.id }, 'bob')).node).toBeNull();
      expect(await code(StopWorkflowJobDocument, { input: { arn: alicesJob.arn } }, 'bob')).toBe('NOT_FOUND/EXECUTION_DOES_NOT_EXIST');
      // The same name and input started by bob names that job, which he may not see: refused, never returned.
      expect(await code(StartWorkflowJobDocument, { input: { definitionArn: def.arn, name: 'alices' } }, 'bob')).toBe('CONFLICT/EXECUTION_ALREADY_EXISTS');
      const bobs = (await ok(WorkflowDefinitionDocument, { arn: def.arn, jobsFirst: 10 }, 'bob')).workflowDefinition!.jobs;
      expect(bobs.nodes.map((n) => n.arn)).not.toContain(alicesJob.arn);

      expect((await ok(WorkflowJobDocument, { arn: alicesJob.arn }, 'admin')).workflowJob).toMatchObject({ arn: alicesJob.arn, startedBy: { login: users.alice.login } });
      expect(await jobArns({ definition: def.arn }, 'admin')).toContain(alicesJob.arn);
      expect((await ok(node, { id: alicesJob.id }, 'admin')).node).toEqual({ __typename: 'WorkflowJob', arn: alicesJob.arn });
      expect((await stop(alicesJob.arn, {}, 'admin')).status).toBe('ABORTED');
      expect((await ok(WorkflowJobDocument, { arn: alicesJob.arn }, 'alice')).workflowJob!.status).toBe('ABORTED');
    });

    it("another user may read and start a definition but not update or delete it (FORBIDDEN); its creator and a site admin may", async () => {
      const d = await createDef(uniq('owned'));
      expect(await code(UpdateWorkflowDefinitionDocument, { input: { arn: d.arn, definition: PASS2 } }, 'bob')).toBe('FORBIDDEN');
      expect(await code(DeleteWorkflowDefinitionDocument, { input: { arn: d.arn } }, 'bob')).toBe('FORBIDDEN');
      expect((await ok(WorkflowDefinitionDocument, { arn: d.arn }, 'bob')).workflowDefinition).toMatchObject({ definition: PASS, status: 'ACTIVE' });
      expect((await start(d.arn, {}, 'bob')).job.status).toBe('RUNNING');
      await ok(UpdateWorkflowDefinitionDocument, { input: { arn: d.arn, roleArn: ROLE2 } }, 'admin');
      await ok(UpdateWorkflowDefinitionDocument, { input: { arn: d.arn, roleArn: ROLE } }, 'alice');
      await ok(DeleteWorkflowDefinitionDocument, { input: { arn: d.arn } }, 'alice');
    });

    it('needs a token with the workflow scope or permission; a read-only permission cannot write', async () => {
      expect(await code(WorkflowDefinitionsDocument, {}, 'anonymous')).toBe('UNAUTHENTICATED');
      expect(await code(WorkflowJobsDocument, {}, 'anonymous')).toBe('UNAUTHENTICATED');
      expect(await code(WorkflowDefinitionsDocument, {}, 'dave')).toBe('FORBIDDEN');
      expect(await code(WorkflowJobDocument, { arn: alicesJob.arn }, 'dave')).toBe('FORBIDDEN');
      expect(await code(CreateWorkflowDefinitionDocument, { input: { name: uniq('x'), definition: PASS, roleArn: ROLE } }, 'dave')).toBe('FORBIDDEN');
      // node(id:) hides rather than refuses.
      expect((await ok(`query($id: ID!) { node(id: $id) { id } }`, { id: alicesJob.id }, 'dave')).node).toBeNull();
      expect((await ok(`query($id: ID!) { node(id: $id) { id } }`, { id: alicesJob.id }, 'anonymous')).node).toBeNull();

      // carol: fine-grained, workflow read.
      expect((await ok(WorkflowDefinitionDocument, { arn: def.arn }, 'carol')).workflowDefinition!.arn).toBe(def.arn);
      expect(await jobArns({ definition: def.arn }, 'carol')).toEqual([]);
      expect(await code(StartWorkflowJobDocument, { input: { definitionArn: def.arn } }, 'carol')).toBe('FORBIDDEN');
      expect(await code(UpdateWorkflowDefinitionDocument, { input: { arn: def.arn, roleArn: ROLE2 } }, 'carol')).toBe('FORBIDDEN');
      expect(await code(DeleteWorkflowDefinitionDocument, { input: { arn: def.arn } }, 'carol')).toBe('FORBIDDEN');
      expect((await ok(WorkflowDefinitionDocument, { arn: def.arn })).workflowDefinition!.status).toBe('ACTIVE');
    });
  });

  describe('both transports on one database', () => {
    it('a job started in GraphQL is what @aws-sdk/client-sfn describes, lists and stops; its history agrees', async () => {
      const d = await createDef(uniq('cross'));
      const sm = await sfn.alice.send(new DescribeStateMachineCommand({ stateMachineArn: d.arn }));
      expect(sm).toMatchObject({ stateMachineArn: d.arn, name: d.name, status: 'ACTIVE', definition: PASS, roleArn: ROLE, type: 'STANDARD', revisionId: d.revisionId });
      expect(sm.creationDate!.getTime()).toBe(Date.parse(d.createdAt));

      const { job } = await start(d.arn, { name: 'from-graphql', input: '{"via":"graphql"}' });
      await expectParity({
        rest: () => sfn.alice.send(new DescribeExecutionCommand({ executionArn: job.arn })),
        graphql: () => ok(WorkflowJobDocument, { arn: job.arn }),
        normalize: {
          rest: (r) => ({ arn: r.executionArn, definition: r.stateMachineArn, name: r.name, status: r.status, input: r.input, startedAt: r.startDate!.getTime() }),
          graphql: (g) => {
            const j = g.workflowJob!;
            return { arn: j.arn, definition: j.definition!.arn, name: j.name, status: j.status, input: j.input, startedAt: Date.parse(j.startedAt) };
          },
        },
      });
      const listed = await sfn.alice.send(new ListExecutionsCommand({ stateMachineArn: d.arn }));
      expect(listed.executions!.map((e) => e.executionArn)).toEqual([job.arn]);
      // Bob's key sees none of alice's jobs there either.
      expect((await sfn.bob.send(new ListExecutionsCommand({ stateMachineArn: d.arn }))).executions).toEqual([]);

      await sfn.alice.send(new StopExecutionCommand({ executionArn: job.arn, error: 'Wire', cause: 'stopped over the wire' }));
      const after = (await ok(WorkflowJobDocument, { arn: job.arn })).workflowJob!;
      expect(after).toMatchObject({ status: 'ABORTED', error: 'Wire', cause: 'stopped over the wire' });
      const wire = await sfn.alice.send(new GetExecutionHistoryCommand({ executionArn: job.arn }));
      expect(wire.events!.map((e) => [e.id, e.previousEventId, e.type, e.timestamp!.getTime()])).toEqual(
        after.history.nodes.map((e) => [e.id, e.previousEventId, e.type, Date.parse(e.timestamp)]),
      );
      expect(wire.events![0].executionStartedEventDetails).toEqual(after.history.nodes[0].details.executionStartedEventDetails);
    });

    it('a definition and a job made with @aws-sdk/client-sfn are in the graph; GraphQL stops it', async () => {
      const name = uniq('wire');
      const { stateMachineArn } = await sfn.bob.send(new CreateStateMachineCommand({ name, definition: PASS2, roleArn: ROLE2 }));
      const d = (await ok(WorkflowDefinitionDocument, { arn: stateMachineArn! }, 'alice')).workflowDefinition!;
      expect(d).toMatchObject({ arn: stateMachineArn, name, definition: PASS2, roleArn: ROLE2, status: 'ACTIVE' });

      const started = await sfn.bob.send(new StartExecutionCommand({ stateMachineArn, name: 'from-wire', input: '{"via":"wire"}' }));
      const j = (await ok(WorkflowJobDocument, { arn: started.executionArn! }, 'bob')).workflowJob!;
      expect(j).toMatchObject({ name: 'from-wire', status: 'RUNNING', input: '{"via":"wire"}', startedBy: { login: users.bob.login }, definition: { arn: stateMachineArn } });
      expect(Date.parse(j.startedAt)).toBe(started.startDate!.getTime());
      expect(await jobArns({ definition: stateMachineArn }, 'bob')).toEqual([started.executionArn]);
      // Alice did not start it: not hers to see in either transport.
      expect(await code(WorkflowJobDocument, { arn: started.executionArn! }, 'alice')).toBe('NOT_FOUND/EXECUTION_DOES_NOT_EXIST');

      // Idempotent start across transports: the same name and input in GraphQL is the job the wire started.
      const again = await start(stateMachineArn!, { name: 'from-wire', input: '{"via":"wire"}' }, 'bob');
      expect(again).toMatchObject({ created: false, job: { arn: started.executionArn } });

      await stop(started.executionArn!, { cause: 'stopped in GraphQL' }, 'bob');
      const wire = await sfn.bob.send(new DescribeExecutionCommand({ executionArn: started.executionArn }));
      expect(wire).toMatchObject({ status: 'ABORTED', cause: 'stopped in GraphQL' });
      expect(wire.stopDate).toBeInstanceOf(Date);
    });
  });
});
