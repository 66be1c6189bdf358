/**
 * The workflow graph's versions, aliases and tags of definitions and Map Runs of jobs (issue 23 §3), over HTTP with
 * Bearer tokens next to the real @aws-sdk/client-sfn on the same server: what one transport writes the other reads
 * the same; the writes' rules and errors are the services' (owner only, CONFLICT for a stale revision or a version an
 * alias uses, tag limits); a page of 20 definitions with versions, aliases and tags, or of jobs with their Map Runs,
 * runs as many statements as a page of 2 (loaders); a Distributed Map job's runs carry DescribeMapRun's counts and
 * its children name their run.
 */
import {
  DescribeMapRunCommand,
  DescribeStateMachineAliasCommand,
  ListExecutionsCommand,
  ListStateMachineVersionsCommand,
  ListTagsForResourceCommand,
  PublishStateMachineVersionCommand,
  RedriveExecutionCommand,
  SFNClient,
  StartExecutionCommand,
  TagResourceCommand,
} from '@aws-sdk/client-sfn';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import type { AccountEntity } from '../../entities/identity';
import { WorkflowDefinitionAliasEntity, WorkflowDefinitionEntity, WorkflowDefinitionVersionEntity, WorkflowTagEntity } from '../../entities/workflow';
import {
  CreateWorkflowDefinitionAliasDocument,
  CreateWorkflowDefinitionDocument,
  DeleteWorkflowDefinitionAliasDocument,
  DeleteWorkflowDefinitionVersionDocument,
  PublishWorkflowDefinitionVersionDocument,
  TagWorkflowDefinitionDocument,
  UntagWorkflowDefinitionDocument,
  UpdateWorkflowDefinitionAliasDocument,
  UpdateWorkflowDefinitionDocument,
  WorkflowDefinitionAliasesDocument,
  WorkflowDefinitionsCatalogDocument,
  WorkflowDefinitionVersionsDocument,
  WorkflowJobMapRunsDocument,
  WorkflowJobsMapRunsDocument,
} from '../__generated__/graphql';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { describeStatements, repeatedStatements, SqlLog } from '../helpers/sql-log';
import { waitForExecution } from '../helpers/workflow-jobs';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const pass = (n: number) => JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass', Result: { n }, End: true } } });

type Who = 'alice' | 'bob' | 'carol';
type GqlError = { message: string; extensions?: Record<string, unknown> };

describe('workflow GraphQL: versions, aliases, tags, Map Runs', () => {
  let t: TestApp;
  const sql = new SqlLog();
  const tokens: Partial<Record<Who, string>> = {};
  let alice: AccountEntity;
  let sfn: SFNClient;

  async function send<R, V>(doc: TypedDocumentNode<R, V>, variables: V, who: Who) {
    const r = await gql<R>(t.url, print(doc), variables as Record<string, unknown>, tokens[who]);
    expect(r.status).toBeLessThan(500);
    return r.body;
  }
  async function ok<R, V>(doc: TypedDocumentNode<R, V>, variables: V, who: Who = 'alice'): Promise<R> {
    const body = await send(doc, variables, who);
    expect(body.errors).toBeUndefined();
    return body.data as R;
  }
  /** "CODE" or "CODE/DOMAIN_CODE" of the first error (and the error). */
  async function code<R, V>(doc: TypedDocumentNode<R, V>, variables: V, who: Who = 'alice'): Promise<string> {
    const body = await send(doc, variables, who);
    expect(body.errors?.length).toBeGreaterThan(0);
    const e = body.errors![0] as GqlError;
    return [e.extensions?.code, e.extensions?.domainCode].filter(Boolean).join('/');
  }
  /** The statements of `fn` (its fewest over three runs: the runner's poll is not the request's). */
  async function fewest<T>(fn: () => Promise<T>) {
    let best: { result: T; statements: Array<{ sql: string; parameters: unknown[] }> } | undefined;
    for (let i = 0; i < 3; i++) {
      const r = await sql.record(fn);
      if (!best || r.statements.length < best.statements.length) best = r;
    }
    return best!;
  }
  const createDef = async (name: string, definition = pass(1)) =>
    (await ok(CreateWorkflowDefinitionDocument, { input: { name, definition, roleArn: ROLE } })).createWorkflowDefinition.definition;
  const publish = async (arn: string, extra: { revisionId?: string; description?: string } = {}) =>
    (await ok(PublishWorkflowDefinitionVersionDocument, { input: { arn, ...extra } })).publishWorkflowDefinitionVersion.version;

  beforeAll(async () => {
    // The embedded runner runs the Distributed Map; its due-jobs poll may fall into a counting window, so counts take
    // the fewest of a few recordings (a request's own statements are in each).
    t = await startTestApp({ logger: sql, env: { WORKFLOW_RUNNER: 'embedded' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    alice = await fx.user(uniq('alice'));
    const bob = await fx.user(uniq('bob'));
    tokens.alice = await fx.classicToken(alice, ['workflow']);
    tokens.bob = await fx.classicToken(bob, ['workflow']);
    // A fine-grained token that may read workflows only.
    const carol = await fx.user(uniq('carol'));
    const repo = await fx.repo(carol);
    tokens.carol = await fx.fineGrainedToken(carol, [`${carol.login}/${repo.name}`], { workflow: 'read' });
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: alice.login });
    sfn = new SFNClient({
      region: 'us-east-1',
      endpoint: `${t.url}/workflow`,
      credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey },
      disableHostPrefix: true,
      maxAttempts: 1,
    });
  }, 60_000);

  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  it('a page of 20 definitions with versions, aliases (and their versions) and tags runs the statements of a page of 2', async () => {
    // The first definitions of the file (factory rows, as the services write them): every one on the page has three
    // versions, an alias to the newest and two tags.
    const m = t.db.dataSource.manager;
    const now = new Date();
    for (let i = 0; i < 20; i++) {
      const name = `a-catalog-${String(i).padStart(2, '0')}`;
      const arn = `arn:aws:states:us-east-1:000000000000:stateMachine:${name}`;
      const def = m.create(WorkflowDefinitionEntity, { arn, name, definition: pass(3), roleArn: ROLE, type: 'STANDARD', status: 'ACTIVE', createdBy: alice.id, createdAt: now, updatedAt: now, revisionId: `r${i}`, lastVersion: 3 });
      await m.save(def);
      for (const n of [1, 2, 3]) {
        await m.insert(WorkflowDefinitionVersionEntity, { definitionId: def.id, number: n, arn: `${arn}:${n}`, definition: pass(n), roleArn: ROLE, revisionId: `r${i}.${n}`, description: `v${n}`, createdAt: now });
      }
      await m.insert(WorkflowDefinitionAliasEntity, { definitionId: def.id, name: 'live', arn: `${arn}:live`, description: null, routing: JSON.stringify([{ stateMachineVersionArn: `${arn}:3`, weight: 100 }]), createdAt: now, updatedAt: now });
      await m.insert(WorkflowTagEntity, [
        { resourceArn: arn, key: 'team', value: `t${i}` },
        { resourceArn: arn, key: 'tier', value: '' },
      ]);
    }
    const run = async (first: number) => {
      const { result, statements } = await fewest(() => ok(WorkflowDefinitionsCatalogDocument, { first, versionsFirst: 2 }));
      expect(repeatedStatements(statements)).toEqual([]);
      return { nodes: result.workflowDefinitions.nodes, n: statements.length, text: describeStatements(statements) };
    };
    const small = await run(2);
    const large = await run(20);
    expect(large.nodes).toHaveLength(20);
    large.nodes.forEach((d, i) => {
      expect(d.name).toBe(`a-catalog-${String(i).padStart(2, '0')}`);
      expect(d.versions.totalCount).toBe(3);
      expect(d.versions.pageInfo.hasNextPage).toBe(true);
      expect(d.versions.nodes.map((v) => [v.number, v.description, v.arn])).toEqual([
        [3, 'v3', `${d.arn}:3`],
        [2, 'v2', `${d.arn}:2`],
      ]);
      expect(d.aliases).toEqual([expect.objectContaining({ name: 'live', arn: `${d.arn}:live`, routing: [{ versionArn: `${d.arn}:3`, weight: 100, version: { number: 3 } }] })]);
      expect(d.tags).toEqual([
        { key: 'team', value: `t${i}` },
        { key: 'tier', value: '' },
      ]);
    });
    if (large.n !== small.n) throw new Error(`2 definitions: ${small.n} statements, 20: ${large.n}\n${large.text}`);
    // definitions, versions, version counts, aliases, their versions, tags (+ the token's own reads)
    expect(large.n).toBeLessThanOrEqual(9);
  });

  it('versions: publish (idempotent per revision, revisionId guard), newest first with paging both ways, delete; the AWS API reads the same', async () => {
    const d = await createDef(uniq('ver'));
    expect(await code(PublishWorkflowDefinitionVersionDocument, { input: { arn: d.arn, revisionId: 'stale' } })).toBe('CONFLICT');
    const v1 = await publish(d.arn, { revisionId: 'INITIAL', description: 'first' });
    expect(v1).toMatchObject({ arn: `${d.arn}:1`, number: 1, description: 'first', revisionId: d.revisionId });
    // The same revision again is the same version.
    expect((await publish(d.arn)).arn).toBe(v1.arn);
    const arns = [v1.arn];
    for (let n = 2; n <= 5; n++) {
      await ok(UpdateWorkflowDefinitionDocument, { input: { arn: d.arn, definition: pass(n) } });
      arns.unshift((await publish(d.arn)).arn);
    }
    // Published over the wire too: the graph sees it.
    await ok(UpdateWorkflowDefinitionDocument, { input: { arn: d.arn, definition: pass(6) } });
    arns.unshift((await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn: d.arn, description: 'wire' }))).stateMachineVersionArn!);

    const read = async (vars: { first?: number; after?: string | null; last?: number; before?: string | null }, who: Who = 'alice') =>
      (await ok(WorkflowDefinitionVersionsDocument, { arn: d.arn, ...vars }, who)).workflowDefinition!.versions;
    const seen: string[] = [];
    let after: string | null | undefined;
    for (;;) {
      const page = await read({ first: 4, after }, 'carol');
      expect(page.totalCount).toBe(6);
      seen.push(...page.nodes.map((v) => v.arn));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(arns);
    const wire = await sfn.send(new ListStateMachineVersionsCommand({ stateMachineArn: d.arn }));
    expect(wire.stateMachineVersions!.map((v) => v.stateMachineVersionArn)).toEqual(seen);
    const lastTwo = await read({ last: 2 });
    expect(lastTwo.nodes.map((v) => v.number)).toEqual([2, 1]);
    expect(lastTwo.pageInfo.hasPreviousPage).toBe(true);
    expect((await read({ last: 2, before: lastTwo.pageInfo.startCursor })).nodes.map((v) => v.number)).toEqual([4, 3]);
    expect(await code(WorkflowDefinitionVersionsDocument, { arn: d.arn, after: 'garbage!' })).toBe('BAD_USER_INPUT/INVALID_CURSOR');

    expect((await ok(DeleteWorkflowDefinitionVersionDocument, { input: { arn: `${d.arn}:2` } })).deleteWorkflowDefinitionVersion.arn).toBe(`${d.arn}:2`);
    expect((await read({ first: 10 })).nodes.map((v) => v.number)).toEqual([6, 5, 4, 3, 1]);
    // Numbers are never given again.
    await ok(UpdateWorkflowDefinitionDocument, { input: { arn: d.arn, definition: pass(7) } });
    expect((await publish(d.arn)).number).toBe(7);
  });

  it('aliases: create (idempotent), routing by weight with its versions, update, a version in use cannot go, delete; the AWS API reads the same', async () => {
    const d = await createDef(uniq('alias'));
    await publish(d.arn);
    await ok(UpdateWorkflowDefinitionDocument, { input: { arn: d.arn, definition: pass(2) } });
    await publish(d.arn);
    const routing = [
      { versionArn: `${d.arn}:1`, weight: 80 },
      { versionArn: `${d.arn}:2`, weight: 20 },
    ];
    const a = (await ok(CreateWorkflowDefinitionAliasDocument, { input: { name: 'prod', description: 'canary', routing } })).createWorkflowDefinitionAlias.alias;
    expect(a).toMatchObject({ arn: `${d.arn}:prod`, name: 'prod', description: 'canary', routing: routing.map((r, i) => ({ ...r, version: { number: i + 1 } })) });
    expect((await ok(CreateWorkflowDefinitionAliasDocument, { input: { name: 'prod', description: 'canary', routing } })).createWorkflowDefinitionAlias.alias.arn).toBe(a.arn);
    expect(await code(CreateWorkflowDefinitionAliasDocument, { input: { name: 'prod', routing: [{ ...routing[0], weight: 100 }] } })).toBe('CONFLICT');
    expect(await code(CreateWorkflowDefinitionAliasDocument, { input: { name: 'bad', routing: [{ ...routing[0], weight: 50 }] } })).toBe(
      'BAD_USER_INPUT/INVALID_ROUTING_CONFIGURATION',
    );
    expect(await code(CreateWorkflowDefinitionAliasDocument, { input: { name: 'bad', routing: [{ versionArn: `${d.arn}:9`, weight: 100 }] } })).toBe('NOT_FOUND/RESOURCE_NOT_FOUND');
    expect(await code(CreateWorkflowDefinitionAliasDocument, { input: { name: 'x', routing: [...routing, routing[0]] } })).toBe('BAD_USER_INPUT');

    const wire = await sfn.send(new DescribeStateMachineAliasCommand({ stateMachineAliasArn: a.arn }));
    expect(wire.routingConfiguration).toEqual(routing.map((r) => ({ stateMachineVersionArn: r.versionArn, weight: r.weight })));
    expect(wire.description).toBe('canary');

    expect(await code(DeleteWorkflowDefinitionVersionDocument, { input: { arn: `${d.arn}:1` } })).toBe('CONFLICT');
    const u = (await ok(UpdateWorkflowDefinitionAliasDocument, { input: { arn: a.arn, routing: [{ versionArn: `${d.arn}:2`, weight: 100 }] } })).updateWorkflowDefinitionAlias.alias;
    expect(u).toMatchObject({ description: 'canary', routing: [{ versionArn: `${d.arn}:2`, weight: 100, version: { number: 2 } }] });
    expect(await code(UpdateWorkflowDefinitionAliasDocument, { input: { arn: a.arn } })).toBe('BAD_USER_INPUT/INVALID_ROUTING_CONFIGURATION');
    await ok(DeleteWorkflowDefinitionVersionDocument, { input: { arn: `${d.arn}:1` } });
    expect((await ok(DeleteWorkflowDefinitionAliasDocument, { input: { arn: a.arn } })).deleteWorkflowDefinitionAlias.arn).toBe(a.arn);
    expect(await code(DeleteWorkflowDefinitionAliasDocument, { input: { arn: a.arn } })).toBe('NOT_FOUND/RESOURCE_NOT_FOUND');
    expect((await ok(WorkflowDefinitionAliasesDocument, { arn: d.arn })).workflowDefinition!.aliases).toEqual([]);
  });

  it('tags: add, overwrite, remove; Step Functions limits; what TagResource wrote the graph reads', async () => {
    const d = await createDef(uniq('tags'));
    const tags = async (input: { arn: string; tags: Array<{ key: string; value?: string }> }) => (await ok(TagWorkflowDefinitionDocument, { input })).tagWorkflowDefinition.definition.tags;
    expect(await tags({ arn: d.arn, tags: [{ key: 'b', value: '1' }, { key: 'a', value: 'x y' }] })).toEqual([
      { key: 'a', value: 'x y' },
      { key: 'b', value: '1' },
    ]);
    expect(await tags({ arn: d.arn, tags: [{ key: 'b', value: '2' }] })).toEqual([
      { key: 'a', value: 'x y' },
      { key: 'b', value: '2' },
    ]);
    await sfn.send(new TagResourceCommand({ resourceArn: d.arn, tags: [{ key: 'wire', value: 'yes' }] }));
    const un = (await ok(UntagWorkflowDefinitionDocument, { input: { arn: d.arn, keys: ['a', 'absent'] } })).untagWorkflowDefinition.definition.tags;
    expect(un).toEqual([
      { key: 'b', value: '2' },
      { key: 'wire', value: 'yes' },
    ]);
    expect((await sfn.send(new ListTagsForResourceCommand({ resourceArn: d.arn }))).tags).toEqual(un);

    expect(await code(TagWorkflowDefinitionDocument, { input: { arn: d.arn, tags: [{ key: 'aws:x', value: '1' }] } })).toBe('BAD_USER_INPUT');
    expect(await code(TagWorkflowDefinitionDocument, { input: { arn: d.arn, tags: [{ key: 'bad*key' }] } })).toBe('BAD_USER_INPUT');
    expect(await code(TagWorkflowDefinitionDocument, { input: { arn: d.arn, tags: Array.from({ length: 51 }, (_, i) => ({ key: `k${i}` })) } })).toBe('BAD_USER_INPUT');
    // 48 new keys on top of the 2 there fit; one more does not.
    await tags({ arn: d.arn, tags: Array.from({ length: 48 }, (_, i) => ({ key: `k${i}` })) });
    expect(await code(TagWorkflowDefinitionDocument, { input: { arn: d.arn, tags: [{ key: 'one-more' }] } })).toBe('BAD_USER_INPUT/TOO_MANY_TAGS');
    expect(await code(TagWorkflowDefinitionDocument, { input: { arn: `${d.arn}:1`, tags: [{ key: 'v' }] } })).toBe('BAD_USER_INPUT/INVALID_ARN');
    expect(await code(TagWorkflowDefinitionDocument, { input: { arn: d.arn.replace(/:[^:]+$/, ':absent'), tags: [{ key: 'v' }] } })).toBe('NOT_FOUND/RESOURCE_NOT_FOUND');
  });

  it('access: reading needs workflow read; publishing, aliases and tags are the definition owner\u2019s', async () => {
    const d = await createDef(uniq('owned'));
    await publish(d.arn);
    expect(await code(PublishWorkflowDefinitionVersionDocument, { input: { arn: d.arn } }, 'bob')).toBe('FORBIDDEN');
    expect(await code(CreateWorkflowDefinitionAliasDocument, { input: { name: 'x', routing: [{ versionArn: `${d.arn}:1`, weight: 100 }] } }, 'bob')).toBe('FORBIDDEN');
    expect(await code(TagWorkflowDefinitionDocument, { input: { arn: d.arn, tags: [{ key: 'k' }] } }, 'bob')).toBe('FORBIDDEN');
    expect(await code(UntagWorkflowDefinitionDocument, { input: { arn: d.arn, keys: ['k'] } }, 'bob')).toBe('FORBIDDEN');
    expect(await code(DeleteWorkflowDefinitionVersionDocument, { input: { arn: `${d.arn}:1` } }, 'bob')).toBe('FORBIDDEN');
    // A read-only token reads them and writes nothing.
    expect((await ok(WorkflowDefinitionVersionsDocument, { arn: d.arn, first: 5 }, 'carol')).workflowDefinition!.versions.nodes.map((v) => v.number)).toEqual([1]);
    expect(await code(TagWorkflowDefinitionDocument, { input: { arn: d.arn, tags: [{ key: 'k' }] } }, 'carol')).toBe('FORBIDDEN');
    const anon = await gql(t.url, print(WorkflowDefinitionVersionsDocument), { arn: d.arn });
    expect(anon.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('Map Runs: a Distributed Map job\u2019s runs with DescribeMapRun\u2019s counts, its children name their run; a page of jobs with runs is flat', async () => {
    const def = await createDef(
      uniq('dmap'),
      JSON.stringify({
        StartAt: 'Fan',
        States: {
          Fan: {
            Type: 'Map',
            Label: 'Fan',
            ItemsPath: '$.items',
            MaxConcurrency: 2,
            ToleratedFailureCount: 1,
            ItemProcessor: {
              ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
              StartAt: 'Check',
              States: {
                Check: { Type: 'Choice', Choices: [{ Variable: '$', NumericEquals: 3, Next: 'Bad' }], Default: 'Good' },
                Bad: { Type: 'Fail', Error: 'Three', Cause: 'no threes' },
                Good: { Type: 'Pass', End: true },
              },
            },
            End: true,
          },
        },
      }),
    );
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn: def.arn, input: JSON.stringify({ items: [1, 2, 3, 4, 5] }) }));
    expect((await waitForExecution(sfn, executionArn!, { timeoutMs: 100_000 })).status).toBe('SUCCEEDED');

    const job = (await ok(WorkflowJobMapRunsDocument, { arn: executionArn! })).workflowJob!;
    expect(job.mapRun).toBeNull();
    expect(job.mapRuns.totalCount).toBe(1);
    const [run] = job.mapRuns.nodes;
    const wire = await sfn.send(new DescribeMapRunCommand({ mapRunArn: run.arn }));
    expect(run).toMatchObject({
      arn: wire.mapRunArn,
      status: 'SUCCEEDED',
      maxConcurrency: 2,
      toleratedFailureCount: 1,
      toleratedFailurePercentage: 0,
      error: null,
      redriveCount: 0,
      redrivenAt: null,
      job: { arn: executionArn },
    });
    expect(Date.parse(run.startedAt)).toBe(wire.startDate!.getTime());
    expect(Date.parse(run.stoppedAt!)).toBe(wire.stopDate!.getTime());
    const { __typename: _i, ...items } = run.itemCounts as typeof run.itemCounts & { __typename?: string };
    expect(items).toEqual(wire.itemCounts);
    expect(run.executionCounts).toEqual(wire.executionCounts);
    expect(run.itemCounts).toMatchObject({ succeeded: 4, failed: 1, total: 5, pending: 0, running: 0 });

    // A child names its run; its own mapRuns are none.
    const kids = (await sfn.send(new ListExecutionsCommand({ mapRunArn: run.arn }))).executions!;
    expect(kids).toHaveLength(5);
    const kid = (await ok(WorkflowJobMapRunsDocument, { arn: kids[0].executionArn! })).workflowJob!;
    expect(kid.mapRun).toEqual({ arn: run.arn });
    expect(kid.mapRuns).toMatchObject({ totalCount: 0, nodes: [] });

    // Jobs of the definition: the parent and its 5 children, each with its run / runs, as flat as 2 of them.
    const page = async (first: number) => {
      const { result, statements } = await fewest(() => ok(WorkflowJobsMapRunsDocument, { filter: { definition: def.arn }, first }));
      expect(repeatedStatements(statements)).toEqual([]);
      return { nodes: result.workflowJobs.nodes, n: statements.length, text: describeStatements(statements) };
    };
    const small = await page(2);
    const large = await page(6);
    expect(large.nodes).toHaveLength(6);
    const parent = large.nodes.find((n) => n.arn === executionArn)!;
    expect(parent.mapRuns.nodes.map((r) => r.arn)).toEqual([run.arn]);
    expect(large.nodes.filter((n) => n.mapRun?.arn === run.arn)).toHaveLength(5);
    if (large.n !== small.n) throw new Error(`2 jobs: ${small.n} statements, 6: ${large.n}\n${large.text}`);
  }, 180_000);

  it('a redriven Map Run shows DescribeMapRun\u2019s redriveCount and redriveDate', async () => {
    // Item 1 fails until its child is redriven (it reads its redrive count from the context object).
    const def = await createDef(
      uniq('dmapr'),
      JSON.stringify({
        StartAt: 'Fan',
        States: {
          Fan: {
            Type: 'Map',
            Label: 'Fan',
            ItemsPath: '$.items',
            ItemSelector: { 'v.$': '$$.Map.Item.Value' },
            ItemProcessor: {
              ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
              StartAt: 'Check',
              States: {
                // No Default: item 1 fails here (States.NoChoiceMatched), and its redrive runs this state again.
                Check: { Type: 'Choice', Choices: [{ Or: [{ Not: { Variable: '$.v', NumericEquals: 1 } }, { Variable: '$$.Execution.RedriveCount', NumericGreaterThan: 0 }], Next: 'Good' }] },
                Good: { Type: 'Pass', End: true },
              },
            },
            End: true,
          },
        },
      }),
    );
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn: def.arn, input: JSON.stringify({ items: [0, 1, 2] }) }));
    expect((await waitForExecution(sfn, executionArn!, { timeoutMs: 100_000 })).status).toBe('FAILED');
    const before = (await ok(WorkflowJobMapRunsDocument, { arn: executionArn! })).workflowJob!.mapRuns.nodes[0];
    expect(before).toMatchObject({ status: 'FAILED', redriveCount: 0, redrivenAt: null });

    await sfn.send(new RedriveExecutionCommand({ executionArn }));
    expect((await waitForExecution(sfn, executionArn!, { timeoutMs: 100_000 })).status).toBe('SUCCEEDED');
    const [run] = (await ok(WorkflowJobMapRunsDocument, { arn: executionArn! })).workflowJob!.mapRuns.nodes;
    const wire = await sfn.send(new DescribeMapRunCommand({ mapRunArn: run.arn }));
    expect(wire).toMatchObject({ status: 'SUCCEEDED', redriveCount: 1, redriveDate: expect.any(Date) });
    expect(run).toMatchObject({ arn: before.arn, status: 'SUCCEEDED', redriveCount: 1 });
    expect(Date.parse(run.redrivenAt!)).toBe(wire.redriveDate!.getTime());
    expect(Date.parse(run.redrivenAt!)).toBeGreaterThanOrEqual(Date.parse(before.stoppedAt!));
  }, 180_000);
});
