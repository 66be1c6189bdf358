/**
 * Workflow definitions and jobs services on a real database (SQLite, or PostgreSQL with DATABASE_URL): who may do
 * what, atomic idempotent starts and stops under concurrency, the onStarted hook, DELETING definitions.
 */
import { WorkflowJobEntity, WorkflowJobEventEntity } from '../../../entities/workflow';
import type { AccountEntity } from '../../../entities/identity';
import type { RequestContext } from '../../../src/context';
import { AppError } from '../../../src/errors/app-error';
import { cachedStatementCount } from '../../../src/services/common/list-query';
import type { ListArgs, ListPage } from '../../../src/services/workflow/lists';
import { IdentityFixtures, uniq } from '../../fixtures/identity';
import { testContexts, TestContexts } from '../../helpers/context';
import { openTestDatabase, TestDatabase } from '../../helpers/db';

const ROLE = 'arn:aws:iam::000000000000:role/runner';
const PASS = '{"StartAt":"A","States":{"A":{"Type":"Pass","End":true}}}';

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return e.reason;
  }
}

describe('workflow services', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  let contexts: TestContexts;
  let alice: AccountEntity;
  let tokens: Record<string, string>;
  const as = (who: string): Promise<RequestContext> => contexts.as(tokens[who]);

  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
    contexts = testContexts(db.dataSource, f.services);
    alice = await f.user(uniq('alice'));
    const admin = await f.user(uniq('admin'), { siteAdmin: true });
    tokens = {
      alice: await f.classicToken(alice, ['workflow']),
      aliceNoScope: await f.classicToken(alice, ['repo']),
      admin: await f.classicToken(admin, ['workflow']),
    };
  });
  afterAll(() => db?.drop());

  const defs = () => f.services.workflowDefinitions;
  const jobs = () => f.services.workflowJobs;

  it('needs a workflow credential: anonymous is unauthenticated, a token without the workflow scope forbidden', async () => {
    expect(await reason(defs().list(await contexts.as(), {}))).toBe('UNAUTHENTICATED');
    expect(await reason(defs().list(await as('aliceNoScope'), {}))).toBe('FORBIDDEN');
    expect(await reason(defs().create(await as('aliceNoScope'), { name: uniq('d'), definition: PASS, roleArn: ROLE }))).toBe('FORBIDDEN');
    expect(await reason(defs().list(await as('alice'), {}))).toBe('ok');
  });

  it('concurrent creates of one name make one definition; concurrent starts of one name make one job and call onStarted once', async () => {
    const ctx = await as('alice');
    const name = uniq('race');
    const created = await Promise.all(Array.from({ length: 6 }, async () => defs().create(await as('alice'), { name, definition: PASS, roleArn: ROLE })));
    expect(new Set(created.map((d) => d.id)).size).toBe(1);

    const started: number[] = [];
    jobs().setHooks({ onStarted: (id) => void started.push(id) });
    try {
      const results = await Promise.all(
        Array.from({ length: 8 }, async () => jobs().start(await as('alice'), { stateMachineArn: created[0].arn, name: 'same', input: '{"a":1}' })),
      );
      expect(new Set(results.map((r) => r.job.id)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(started).toEqual([results[0].job.id]);
      const events = await db.dataSource.getRepository(WorkflowJobEventEntity).find({ where: { jobId: results[0].job.id } });
      expect(events.map((e) => [e.eventId, e.type])).toEqual([[1, 'ExecutionStarted']]);
      const job = await db.dataSource.getRepository(WorkflowJobEntity).findOneByOrFail({ id: results[0].job.id });
      expect(job).toMatchObject({ status: 'RUNNING', checkpoint: null, version: 1, definitionText: PASS, startedBy: alice.id });
      expect(job.wakeAt?.getTime()).toBe(job.startDate.getTime());
    } finally {
      jobs().setHooks({});
    }

    // A failing hook does not fail the start (the job is committed; the runner finds it by its wake time).
    jobs().setHooks({ onStarted: () => Promise.reject(new Error('runner down')) });
    try {
      expect((await jobs().start(ctx, { stateMachineArn: created[0].arn, name: 'hooked' })).created).toBe(true);
    } finally {
      jobs().setHooks({});
    }
  });

  it('concurrent stops: exactly one aborts (version + 1, one ExecutionAborted event), the others are told it is not running', async () => {
    const d = await defs().create(await as('alice'), { name: uniq('stop'), definition: PASS, roleArn: ROLE });
    const { job } = await jobs().start(await as('alice'), { stateMachineArn: d.arn, name: 'victim' });
    const outcomes = await Promise.all(Array.from({ length: 6 }, async () => reason(jobs().stop(await as('alice'), { executionArn: job.arn, cause: 'c' }))));
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'EXECUTION_NOT_RUNNING')).toHaveLength(5);
    const row = await db.dataSource.getRepository(WorkflowJobEntity).findOneByOrFail({ id: job.id });
    expect(row).toMatchObject({ status: 'ABORTED', version: 2, cause: 'c', error: null, wakeAt: null });
    const events = await db.dataSource.getRepository(WorkflowJobEventEntity).find({ where: { jobId: job.id }, order: { eventId: 'ASC' } });
    expect(events.map((e) => [e.eventId, e.type])).toEqual([
      [1, 'ExecutionStarted'],
      [2, 'ExecutionAborted'],
    ]);
  });

  it('jobs are the starter’s and site admins’: lists derive the same rule', async () => {
    const d = await defs().create(await as('alice'), { name: uniq('vis'), definition: PASS, roleArn: ROLE });
    const mine = await jobs().start(await as('alice'), { stateMachineArn: d.arn });
    const theirs = await jobs().start(await as('admin'), { stateMachineArn: d.arn });
    const aliceSees = (await jobs().list(await as('alice'), { stateMachineArn: d.arn })).items.map((j) => j.id);
    expect(aliceSees).toEqual([mine.job.id]);
    const adminSees = (await jobs().list(await as('admin'), { stateMachineArn: d.arn })).items.map((j) => j.id);
    expect(adminSees).toEqual([theirs.job.id, mine.job.id]);
    expect(await reason(jobs().describe(await as('alice'), theirs.job.arn))).toBe('EXECUTION_DOES_NOT_EXIST');
    expect(await reason(jobs().describe(await as('admin'), mine.job.arn))).toBe('ok');
    // The same name and input as someone else's running job is not "the same request": the name is taken.
    expect(await reason(jobs().start(await as('alice'), { stateMachineArn: d.arn, name: theirs.job.name, input: '{}' }))).toBe('EXECUTION_ALREADY_EXISTS');
  });

  it('a DELETING definition takes no jobs, keeps its running ones, and goes with them when the last stops', async () => {
    const d = await defs().create(await as('alice'), { name: uniq('del'), definition: PASS, roleArn: ROLE });
    const a = await jobs().start(await as('alice'), { stateMachineArn: d.arn });
    const b = await jobs().start(await as('alice'), { stateMachineArn: d.arn });
    await defs().delete(await as('alice'), d.arn);
    expect((await defs().describe(await as('alice'), d.arn)).status).toBe('DELETING');
    expect(await reason(jobs().start(await as('alice'), { stateMachineArn: d.arn }))).toBe('STATE_MACHINE_DELETING');
    expect(await reason(defs().update(await as('alice'), { arn: d.arn, roleArn: ROLE }))).toBe('STATE_MACHINE_DELETING');
    // Re-creating the name while it is being deleted is refused.
    expect(await reason(defs().create(await as('alice'), { name: d.name, definition: PASS, roleArn: ROLE }))).toBe('STATE_MACHINE_DELETING');
    await jobs().stop(await as('alice'), { executionArn: a.job.arn });
    expect((await defs().describe(await as('alice'), d.arn)).status).toBe('DELETING');
    await jobs().stop(await as('alice'), { executionArn: b.job.arn });
    expect(await reason(defs().describe(await as('alice'), d.arn))).toBe('STATE_MACHINE_DOES_NOT_EXIST');
    expect(await db.dataSource.getRepository(WorkflowJobEntity).countBy({ definitionId: d.id })).toBe(0);
    expect(await db.dataSource.getRepository(WorkflowJobEventEntity).countBy({ jobId: a.job.id })).toBe(0);
    // The name is free again.
    expect(await reason(defs().create(await as('alice'), { name: d.name, definition: PASS, roleArn: ROLE }))).toBe('ok');
  });

  it('definition checks: TimeoutSeconds becomes a job deadline; EXPRESS machines are served without jobs', async () => {
    const withTimeout = '{"TimeoutSeconds":90,"StartAt":"A","States":{"A":{"Type":"Wait","Seconds":600,"End":true}}}';
    const d = await defs().create(await as('alice'), { name: uniq('timeout'), definition: withTimeout, roleArn: ROLE });
    const { job } = await jobs().start(await as('alice'), { stateMachineArn: d.arn });
    expect(job.deadline!.getTime() - job.startDate.getTime()).toBe(90_000);
    const express = await defs().create(await as('alice'), { name: uniq('x'), definition: PASS, roleArn: ROLE, type: 'EXPRESS' });
    expect(express.type).toBe('EXPRESS');
    // Express executions are no jobs: a job start (GraphQL's) is refused by the machine's type.
    expect(await reason(jobs().start(await as('alice'), { stateMachineArn: express.arn }))).toBe('STATE_MACHINE_TYPE_NOT_SUPPORTED');
    const activity = '{"StartAt":"A","States":{"A":{"Type":"Task","Resource":"arn:aws:states:us-east-1:000000000000:activity:w","End":true}}}';
    expect(await reason(defs().create(await as('alice'), { name: uniq('x'), definition: activity, roleArn: ROLE, type: 'EXPRESS' }))).toBe('INVALID_DEFINITION');
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    expect(await reason(defs().create(await as('alice'), { name: uniq('deep'), definition: deep, roleArn: ROLE }))).toBe('INVALID_DEFINITION');
  });

  it('ListStateMachines and ListActivities page by name: each item once, in name order; every page after the first re-binds one statement', async () => {
    const ctx = await as('alice');
    const prefix = uniq('paged');
    const names = ['c', 'a', 'e', 'b', 'd'].map((s) => `${prefix}-${s}`);
    for (const name of names) await defs().create(ctx, { name, definition: PASS, roleArn: ROLE });
    for (const name of names) await f.services.workflowActivities.create(ctx, { name });
    const walk = async <T extends { name: string }>(list: (args: ListArgs) => Promise<ListPage<T>>) => {
      const items: T[] = [];
      const shapes: number[] = [];
      const before = cachedStatementCount();
      let nextToken: string | undefined;
      do {
        const page = await list({ maxResults: 2, nextToken });
        expect(page.items.length).toBeLessThanOrEqual(2);
        items.push(...page.items);
        shapes.push(cachedStatementCount());
        nextToken = page.nextToken;
      } while (nextToken);
      return { items, shapes, before };
    };
    const sorted = [...names].sort();
    const machines = await walk((args) => defs().list(ctx, args));
    const activities = await walk((args) => f.services.workflowActivities.list(ctx, args));
    for (const { items, shapes, before } of [machines, activities]) {
      const all = items.map((i) => i.name);
      expect(new Set(all).size).toBe(all.length);
      expect(all).toEqual([...all].sort());
      expect(all.filter((n) => n.startsWith(prefix))).toEqual(sorted);
      // A list's statement text is built once per shape (a ListQuery; a query builder's is not kept): page 2 compiled
      // the shape of pages after a token, later pages re-bind it.
      expect(shapes.length).toBeGreaterThanOrEqual(3);
      expect(shapes[1]).toBeGreaterThan(before);
      expect(new Set(shapes.slice(1)).size).toBe(1);
    }
    const machine = machines.items.find((m) => m.name === sorted[0])!;
    expect(machine).toMatchObject({ name: sorted[0], type: 'STANDARD', arn: expect.stringMatching(new RegExp(`:stateMachine:${sorted[0]}$`)) });
    expect(machine.createdAt).toBeInstanceOf(Date);
    const activity = activities.items.find((a) => a.name === sorted[0])!;
    expect(activity).toMatchObject({ name: sorted[0], arn: expect.stringMatching(new RegExp(`:activity:${sorted[0]}$`)) });
    expect(activity.createdAt).toBeInstanceOf(Date);
  });
});
