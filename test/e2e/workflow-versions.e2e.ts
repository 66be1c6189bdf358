/**
 * Versions and aliases with the REAL @aws-sdk/client-sfn: PublishStateMachineVersion (numbers, revisionId,
 * idempotency, ConflictException), CreateStateMachine/UpdateStateMachine `publish`, DescribeStateMachine of a
 * version, List/DeleteStateMachineVersion (not while an alias routes to it), the alias operations, StartExecution
 * of a version or alias ARN (the job runs that version's text and records the ARNs as DescribeExecution,
 * ListExecutions and ExecutionStarted show them), alias routing by weight with the random source chosen by the
 * test, and concurrent publishing (distinct numbers).
 */
import {
  CreateStateMachineAliasCommand,
  CreateStateMachineCommand,
  DeleteStateMachineAliasCommand,
  DeleteStateMachineCommand,
  DeleteStateMachineVersionCommand,
  DescribeExecutionCommand,
  DescribeStateMachineAliasCommand,
  DescribeStateMachineCommand,
  DescribeStateMachineForExecutionCommand,
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  ListStateMachineAliasesCommand,
  ListStateMachineVersionsCommand,
  PublishStateMachineVersionCommand,
  SFNClient,
  StartExecutionCommand,
  UpdateStateMachineAliasCommand,
  UpdateStateMachineCommand,
} from '@aws-sdk/client-sfn';
import { pickRoute } from '../../src/services/workflow/versions.service';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { errorOf, sfnClientFor, waitForExecution } from '../helpers/workflow-jobs';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const pass = (value: string) => JSON.stringify({ StartAt: 'P', States: { P: { Type: 'Pass', Result: { ran: value }, End: true } } });

describe('workflow versions and aliases (@aws-sdk/client-sfn)', () => {
  let t: TestApp;
  let sfn: SFNClient;
  let bob: SFNClient;

  beforeAll(async () => {
    t = await startTestApp();
    const fx = new IdentityFixtures(t.db.dataSource);
    const client = (login: string) => sfnClientFor(t, fx, login);
    sfn = await client('ver');
    bob = await client('verbob');
  });
  afterAll(async () => {
    sfn?.destroy();
    bob?.destroy();
    await t?.close();
  });

  const waitFor = (executionArn: string, status: string) => waitForExecution(sfn, executionArn, { until: (s) => s === status });
  const create = (name: string, definition = pass('v1'), extra: Record<string, unknown> = {}) =>
    sfn.send(new CreateStateMachineCommand({ name, definition, roleArn: ROLE, ...extra }));

  it('publish numbers versions per revision; revisionId guards; DescribeStateMachine reads a version', async () => {
    const { stateMachineArn } = await create(uniq('ver'));
    // Never updated: INITIAL is the current revision.
    const v1 = await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn, revisionId: 'INITIAL', description: 'first' }));
    expect(v1.stateMachineVersionArn).toBe(`${stateMachineArn}:1`);
    expect(v1.creationDate).toBeInstanceOf(Date);
    // Idempotent for the same revision (no new number).
    expect((await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn }))).stateMachineVersionArn).toBe(`${stateMachineArn}:1`);
    expect(await errorOf(sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn, description: 'another' })))).toBe('ConflictException 409');

    const u = await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, definition: pass('v2') }));
    expect(await errorOf(sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn, revisionId: 'INITIAL' })))).toBe('ConflictException 409');
    expect(await errorOf(sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn, revisionId: 'not-the-revision' })))).toBe('ConflictException 409');
    const v2 = await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn, revisionId: u.revisionId }));
    expect(v2.stateMachineVersionArn).toBe(`${stateMachineArn}:2`);

    // UpdateStateMachine publish (+ versionDescription); versionDescription alone is refused.
    const u3 = await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, definition: pass('v3'), publish: true, versionDescription: 'third' }));
    expect(u3.stateMachineVersionArn).toBe(`${stateMachineArn}:3`);
    expect(await errorOf(sfn.send(new UpdateStateMachineCommand({ stateMachineArn, definition: pass('v4'), versionDescription: 'x' })))).toBe('ValidationException 400');

    const d1 = await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: `${stateMachineArn}:1` }));
    expect(d1).toMatchObject({ stateMachineArn: `${stateMachineArn}:1`, definition: pass('v1'), roleArn: ROLE, description: 'first', status: 'ACTIVE' });
    const d3 = await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: `${stateMachineArn}:3` }));
    expect(d3).toMatchObject({ definition: pass('v3'), description: 'third', revisionId: (await sfn.send(new DescribeStateMachineCommand({ stateMachineArn }))).revisionId });
    expect(await errorOf(sfn.send(new DescribeStateMachineCommand({ stateMachineArn: `${stateMachineArn}:9` })))).toBe('StateMachineDoesNotExist 400');

    // Newest first, paged.
    const arns: string[] = [];
    let nextToken: string | undefined;
    do {
      const page = await sfn.send(new ListStateMachineVersionsCommand({ stateMachineArn, maxResults: 2, nextToken }));
      arns.push(...page.stateMachineVersions!.map((v) => v.stateMachineVersionArn!));
      nextToken = page.nextToken;
    } while (nextToken);
    expect(arns).toEqual([3, 2, 1].map((n) => `${stateMachineArn}:${n}`));

    // Errors: a version ARN where the state machine is meant, an unknown machine, another user's machine.
    expect(await errorOf(sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn: `${stateMachineArn}:1` })))).toBe('InvalidArn 400');
    expect(await errorOf(sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn: `${stateMachineArn}-gone` })))).toBe('StateMachineDoesNotExist 400');
    expect(await errorOf(sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn: 'arn:aws:states:us-east-1:000000000000:activity:x' })))).toBe('InvalidArn 400');
    expect(await errorOf(bob.send(new PublishStateMachineVersionCommand({ stateMachineArn })))).toBe('AccessDeniedException 400');
    expect(await errorOf(sfn.send(new ListStateMachineVersionsCommand({ stateMachineArn, nextToken: 'forged' })))).toBe('InvalidToken 400');

    // Numbers are never reused after a delete.
    await sfn.send(new DeleteStateMachineVersionCommand({ stateMachineVersionArn: `${stateMachineArn}:3` }));
    await sfn.send(new DeleteStateMachineVersionCommand({ stateMachineVersionArn: `${stateMachineArn}:3` })); // already gone: fine
    const u4 = await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, definition: pass('v4'), publish: true }));
    expect(u4.stateMachineVersionArn).toBe(`${stateMachineArn}:4`);
    // CreateStateMachine publish gives version 1.
    const created = await create(uniq('verpub'), pass('x'), { publish: true, versionDescription: 'at birth' });
    expect(created.stateMachineVersionArn).toBe(`${created.stateMachineArn}:1`);
  });

  it('starts from a version or an alias run that version and record the ARNs', async () => {
    const { stateMachineArn } = await create(uniq('run'));
    const v1 = (await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn }))).stateMachineVersionArn!;
    await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, definition: pass('v2') }));
    const v2 = (await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn }))).stateMachineVersionArn!;
    await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, definition: pass('latest') }));

    const alias = await sfn.send(new CreateStateMachineAliasCommand({ name: 'prod', description: 'live', routingConfiguration: [{ stateMachineVersionArn: v1, weight: 100 }] }));
    expect(alias.stateMachineAliasArn).toBe(`${stateMachineArn}:prod`);

    const byVersion = await sfn.send(new StartExecutionCommand({ stateMachineArn: v2 }));
    const byAlias = await sfn.send(new StartExecutionCommand({ stateMachineArn: alias.stateMachineAliasArn }));
    const plain = await sfn.send(new StartExecutionCommand({ stateMachineArn }));
    const dv = await waitFor(byVersion.executionArn!, 'SUCCEEDED');
    const da = await waitFor(byAlias.executionArn!, 'SUCCEEDED');
    const dp = await waitFor(plain.executionArn!, 'SUCCEEDED');
    expect(JSON.parse(dv.output!)).toEqual({ ran: 'v2' });
    expect(dv.stateMachineVersionArn).toBe(v2);
    expect(dv.stateMachineAliasArn).toBeUndefined();
    expect(JSON.parse(da.output!)).toEqual({ ran: 'v1' });
    expect(da).toMatchObject({ stateMachineVersionArn: v1, stateMachineAliasArn: alias.stateMachineAliasArn, stateMachineArn });
    expect(JSON.parse(dp.output!)).toEqual({ ran: 'latest' });
    expect(dp.stateMachineVersionArn).toBeUndefined();

    const started = (await sfn.send(new GetExecutionHistoryCommand({ executionArn: byAlias.executionArn! }))).events![0];
    expect(started.executionStartedEventDetails).toMatchObject({ stateMachineAliasArn: alias.stateMachineAliasArn, stateMachineVersionArn: v1 });

    // ListExecutions of a version lists its jobs (direct and through aliases), of an alias those through it.
    const ofV1 = await sfn.send(new ListExecutionsCommand({ stateMachineArn: v1 }));
    expect(ofV1.executions!.map((e) => e.executionArn)).toEqual([byAlias.executionArn]);
    expect(ofV1.executions![0]).toMatchObject({ stateMachineVersionArn: v1, stateMachineAliasArn: alias.stateMachineAliasArn });
    expect((await sfn.send(new ListExecutionsCommand({ stateMachineArn: alias.stateMachineAliasArn }))).executions!.map((e) => e.executionArn)).toEqual([byAlias.executionArn]);
    expect((await sfn.send(new ListExecutionsCommand({ stateMachineArn }))).executions).toHaveLength(3);

    // A deleted version or alias starts nothing.
    expect(await errorOf(sfn.send(new StartExecutionCommand({ stateMachineArn: `${stateMachineArn}:7` })))).toBe('StateMachineDoesNotExist 400');
    expect(await errorOf(sfn.send(new StartExecutionCommand({ stateMachineArn: `${stateMachineArn}:nope` })))).toBe('StateMachineDoesNotExist 400');
    expect(await errorOf(sfn.send(new StartExecutionCommand({ stateMachineArn: `${stateMachineArn}:bad/alias` })))).toBe('InvalidArn 400');
  });

  it('alias operations: describe, update, list (by version), delete; their errors', async () => {
    const name = uniq('al');
    const { stateMachineArn } = await create(name);
    const v1 = (await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn }))).stateMachineVersionArn!;
    await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, definition: pass('v2') }));
    const v2 = (await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn }))).stateMachineVersionArn!;

    const routing = [{ stateMachineVersionArn: v1, weight: 70 }, { stateMachineVersionArn: v2, weight: 30 }];
    const a = await sfn.send(new CreateStateMachineAliasCommand({ name: 'canary', routingConfiguration: routing }));
    // Idempotent for the same configuration; another one under the name conflicts.
    expect((await sfn.send(new CreateStateMachineAliasCommand({ name: 'canary', routingConfiguration: routing }))).stateMachineAliasArn).toBe(a.stateMachineAliasArn);
    expect(await errorOf(sfn.send(new CreateStateMachineAliasCommand({ name: 'canary', routingConfiguration: [{ stateMachineVersionArn: v1, weight: 100 }] })))).toBe('ConflictException 409');
    const b = await sfn.send(new CreateStateMachineAliasCommand({ name: 'stable', routingConfiguration: [{ stateMachineVersionArn: v1, weight: 100 }] }));

    const d = await sfn.send(new DescribeStateMachineAliasCommand({ stateMachineAliasArn: a.stateMachineAliasArn }));
    expect(d).toMatchObject({ stateMachineAliasArn: a.stateMachineAliasArn, name: 'canary', routingConfiguration: routing });
    expect(d.creationDate).toBeInstanceOf(Date);
    expect(d.description).toBeUndefined();

    const up = await sfn.send(new UpdateStateMachineAliasCommand({ stateMachineAliasArn: a.stateMachineAliasArn, description: 'all on v2', routingConfiguration: [{ stateMachineVersionArn: v2, weight: 100 }] }));
    expect(up.updateDate).toBeInstanceOf(Date);
    expect(await sfn.send(new DescribeStateMachineAliasCommand({ stateMachineAliasArn: a.stateMachineAliasArn }))).toMatchObject({
      description: 'all on v2',
      routingConfiguration: [{ stateMachineVersionArn: v2, weight: 100 }],
    });
    expect(await errorOf(sfn.send(new UpdateStateMachineAliasCommand({ stateMachineAliasArn: a.stateMachineAliasArn })))).toBe('ValidationException 400');

    const all = await sfn.send(new ListStateMachineAliasesCommand({ stateMachineArn }));
    expect(all.stateMachineAliases!.map((x) => x.stateMachineAliasArn)).toEqual([a.stateMachineAliasArn, b.stateMachineAliasArn]);
    expect((await sfn.send(new ListStateMachineAliasesCommand({ stateMachineArn: v1 }))).stateMachineAliases!.map((x) => x.stateMachineAliasArn)).toEqual([b.stateMachineAliasArn]);
    const page1 = await sfn.send(new ListStateMachineAliasesCommand({ stateMachineArn, maxResults: 1 }));
    expect(page1.stateMachineAliases).toHaveLength(1);
    const page2 = await sfn.send(new ListStateMachineAliasesCommand({ stateMachineArn, maxResults: 1, nextToken: page1.nextToken }));
    expect(page2.stateMachineAliases!.map((x) => x.stateMachineAliasArn)).toEqual([b.stateMachineAliasArn]);
    expect(page2.nextToken).toBeUndefined();

    // A version an alias routes to cannot be deleted.
    expect(await errorOf(sfn.send(new DeleteStateMachineVersionCommand({ stateMachineVersionArn: v1 })))).toBe('ConflictException 409');

    // Bad routing: weights not adding to 100, three entries, another machine's version, a version that does not exist.
    const other = await create(uniq('other'));
    const ov = (await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn: other.stateMachineArn }))).stateMachineVersionArn!;
    const bad = (routingConfiguration: { stateMachineVersionArn: string; weight: number }[], aliasName = 'bad') =>
      errorOf(sfn.send(new CreateStateMachineAliasCommand({ name: aliasName, routingConfiguration })));
    expect(await bad([{ stateMachineVersionArn: v1, weight: 50 }])).toBe('ValidationException 400');
    expect(await bad([{ stateMachineVersionArn: v1, weight: 50 }, { stateMachineVersionArn: v1, weight: 50 }])).toBe('ValidationException 400');
    expect(await bad([{ stateMachineVersionArn: v1, weight: 50 }, { stateMachineVersionArn: v2, weight: 25 }, { stateMachineVersionArn: ov, weight: 25 }])).toBe('ValidationException 400');
    expect(await bad([{ stateMachineVersionArn: v1, weight: 50 }, { stateMachineVersionArn: ov, weight: 50 }])).toBe('ValidationException 400');
    expect(await bad([{ stateMachineVersionArn: v1, weight: 101 }])).toBe('ValidationException 400');
    expect(await bad([{ stateMachineVersionArn: `${stateMachineArn}:99`, weight: 100 }])).toBe('ResourceNotFound 400');
    expect(await bad([{ stateMachineVersionArn: stateMachineArn!, weight: 100 }])).toBe('InvalidArn 400');
    expect(await bad([{ stateMachineVersionArn: v1, weight: 100 }], '1234')).toBe('InvalidName 400');
    expect(await bad([{ stateMachineVersionArn: v1, weight: 100 }], 'has space')).toBe('InvalidName 400');
    expect(await errorOf(bob.send(new CreateStateMachineAliasCommand({ name: 'mine', routingConfiguration: [{ stateMachineVersionArn: v1, weight: 100 }] })))).toBe(
      'AccessDeniedException 400',
    );

    expect(await errorOf(sfn.send(new DescribeStateMachineAliasCommand({ stateMachineAliasArn: `${stateMachineArn}:missing` })))).toBe('ResourceNotFound 400');
    expect(await errorOf(sfn.send(new DescribeStateMachineAliasCommand({ stateMachineAliasArn: v1 })))).toBe('InvalidArn 400');
    expect(await errorOf(sfn.send(new ListStateMachineAliasesCommand({ stateMachineArn: `${stateMachineArn}x` })))).toBe('StateMachineDoesNotExist 400');

    await sfn.send(new DeleteStateMachineAliasCommand({ stateMachineAliasArn: b.stateMachineAliasArn }));
    expect(await errorOf(sfn.send(new DescribeStateMachineAliasCommand({ stateMachineAliasArn: b.stateMachineAliasArn })))).toBe('ResourceNotFound 400');
    expect(await errorOf(sfn.send(new DeleteStateMachineAliasCommand({ stateMachineAliasArn: b.stateMachineAliasArn })))).toBe('ResourceNotFound 400');
    // The version stays, and can go now that no alias routes to it.
    expect((await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: v1 }))).definition).toBe(pass('v1'));
    await sfn.send(new DeleteStateMachineVersionCommand({ stateMachineVersionArn: v1 }));
    expect((await sfn.send(new ListStateMachineVersionsCommand({ stateMachineArn }))).stateMachineVersions!.map((v) => v.stateMachineVersionArn)).toEqual([v2]);

    // Deleting the state machine takes its versions and aliases.
    await sfn.send(new DeleteStateMachineCommand({ stateMachineArn }));
    await create(name);
    expect((await sfn.send(new ListStateMachineVersionsCommand({ stateMachineArn }))).stateMachineVersions).toEqual([]);
    expect((await sfn.send(new ListStateMachineAliasesCommand({ stateMachineArn }))).stateMachineAliases).toEqual([]);
  });

  it('an alias routes starts by weight (the random source chosen by the test)', async () => {
    // The rule: [0, w1) goes to the first version, [w1, 100) to the second.
    const routes = [
      { stateMachineVersionArn: 'a', weight: 30 },
      { stateMachineVersionArn: 'b', weight: 70 },
    ];
    expect([0, 0.29, 0.2999, 0.3, 0.99, 0.999999].map((r) => pickRoute(routes, r).stateMachineVersionArn)).toEqual(['a', 'a', 'a', 'b', 'b', 'b']);
    expect(pickRoute([{ stateMachineVersionArn: 'a', weight: 100 }, { stateMachineVersionArn: 'b', weight: 0 }], 0.999999).stateMachineVersionArn).toBe('a');
    expect(pickRoute([{ stateMachineVersionArn: 'a', weight: 0 }, { stateMachineVersionArn: 'b', weight: 100 }], 0).stateMachineVersionArn).toBe('b');

    // Over the wire: the server's random source replaced by a sequence.
    const { stateMachineArn } = await create(uniq('route'));
    const v1 = (await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn }))).stateMachineVersionArn!;
    await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, definition: pass('v2') }));
    const v2 = (await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn }))).stateMachineVersionArn!;
    const { stateMachineAliasArn } = await sfn.send(new CreateStateMachineAliasCommand({ name: 'split', routingConfiguration: [{ stateMachineVersionArn: v1, weight: 25 }, { stateMachineVersionArn: v2, weight: 75 }] }));
    const versions = t.app.deps.services.workflowVersions;
    const sequence = [0.1, 0.24, 0.25, 0.5, 0.9, 0.0];
    let i = 0;
    const original = versions.random;
    versions.random = () => sequence[i++];
    try {
      const ran: string[] = [];
      for (let n = 0; n < sequence.length; n++) {
        const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn: stateMachineAliasArn }));
        ran.push((await sfn.send(new DescribeExecutionCommand({ executionArn }))).stateMachineVersionArn!);
      }
      expect(ran).toEqual([v1, v1, v2, v2, v2, v1]);
    } finally {
      versions.random = original;
    }
  });

  it('DescribeStateMachineForExecution answers the definition the job ran; variableReferences by state', async () => {
    const vars = JSON.stringify({
      StartAt: 'Set',
      States: {
        Set: { Type: 'Pass', QueryLanguage: 'JSONata', Assign: { total: 3, label: 'x' }, Next: 'Use' },
        Use: { Type: 'Pass', QueryLanguage: 'JSONata', Output: '{% {"t": $total, "l": $label, "again": $total} %}', Next: 'Path' },
        Path: { Type: 'Pass', Parameters: { 'n.$': '$total' }, End: true },
      },
    });
    const { stateMachineArn } = await create(uniq('forexec'), vars);
    const d = await sfn.send(new DescribeStateMachineCommand({ stateMachineArn }));
    expect(d.variableReferences).toEqual({ Use: ['total', 'label'], Path: ['total'] });
    const v1 = (await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn }))).stateMachineVersionArn!;
    expect((await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: v1 }))).variableReferences).toEqual({ Use: ['total', 'label'], Path: ['total'] });

    const plain = await sfn.send(new StartExecutionCommand({ stateMachineArn }));
    const byVersion = await sfn.send(new StartExecutionCommand({ stateMachineArn: v1 }));
    await waitFor(plain.executionArn!, 'SUCCEEDED');
    const u = await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, definition: pass('later') }));
    expect((await sfn.send(new DescribeStateMachineCommand({ stateMachineArn }))).variableReferences).toBeUndefined();

    const f = await sfn.send(new DescribeStateMachineForExecutionCommand({ executionArn: plain.executionArn }));
    expect(f).toMatchObject({ stateMachineArn, name: d.name, definition: vars, roleArn: ROLE, revisionId: d.revisionId, variableReferences: { Use: ['total', 'label'], Path: ['total'] } });
    expect(f.revisionId).not.toBe(u.revisionId);
    expect(f.updateDate).toBeInstanceOf(Date);
    const fv = await sfn.send(new DescribeStateMachineForExecutionCommand({ executionArn: byVersion.executionArn }));
    expect(fv).toMatchObject({ stateMachineArn: v1, definition: vars, revisionId: d.revisionId });

    expect(await errorOf(sfn.send(new DescribeStateMachineForExecutionCommand({ executionArn: `${plain.executionArn}-none` })))).toBe('ExecutionDoesNotExist 400');
    expect(await errorOf(sfn.send(new DescribeStateMachineForExecutionCommand({ executionArn: stateMachineArn })))).toBe('InvalidArn 400');
    // Jobs are their starter's: another user's job does not exist for bob.
    expect(await errorOf(bob.send(new DescribeStateMachineForExecutionCommand({ executionArn: plain.executionArn })))).toBe('ExecutionDoesNotExist 400');
  });

  it('concurrent publishes of new revisions get distinct version numbers', async () => {
    const { stateMachineArn } = await create(uniq('conc'));
    const n = 12;
    // Each request updates the definition and publishes in one call; the row lock serializes them.
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => sfn.send(new UpdateStateMachineCommand({ stateMachineArn, definition: pass(`c${i}`), publish: true }))),
    );
    const numbers = results.map((r) => Number(r.stateMachineVersionArn!.split(':').pop()));
    expect(new Set(numbers).size).toBe(n);
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    // Concurrent plain publishes of one revision all answer the same version.
    await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, definition: pass('same') }));
    const same = await Promise.all(Array.from({ length: 8 }, () => sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn }))));
    expect(new Set(same.map((s) => s.stateMachineVersionArn))).toEqual(new Set([`${stateMachineArn}:${n + 1}`]));
    // Each version holds the text its own update wrote.
    for (const [i, r] of results.entries()) {
      expect((await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: r.stateMachineVersionArn }))).definition).toBe(pass(`c${i}`));
    }
    // A generous limit: twelve writers queue on one row (SQLite: one writer at a time) on a loaded machine.
  }, 120_000);
});
