/**
 * The workflow services' methods for the graph on a real database (SQLite, or PostgreSQL with DATABASE_URL):
 * Relay pages of jobs whose SQL visibility agrees with `jobVisible` for every viewer, keyset paging that neither
 * skips nor repeats jobs started in the same millisecond, byId (hidden is null), history pages both ways, and
 * delete's answer (the DELETING definition, or null when gone).
 */
import { WorkflowJobEntity } from '../../../entities/workflow';
import type { AccountEntity } from '../../../entities/identity';
import type { RequestContext } from '../../../src/context';
import { AppError } from '../../../src/errors/app-error';
import type { PageArgs } from '../../../src/services/common/pagination';
import { jobVisible } from '../../../src/services/workflow/access';
import type { JobPageFilter } from '../../../src/services/workflow/jobs.service';
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

describe('workflow services for the graph', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  let contexts: TestContexts;
  let tokens: Record<'alice' | 'bob' | 'admin' | 'none', string>;
  const as = (who: keyof typeof tokens): Promise<RequestContext> => contexts.as(tokens[who]);
  const defs = () => f.services.workflowDefinitions;
  const jobs = () => f.services.workflowJobs;

  /** Every job of a filter, walking pages of `size` forward (first/after). */
  async function walk(ctx: RequestContext, filter: JobPageFilter, size: number): Promise<WorkflowJobEntity[]> {
    const out: WorkflowJobEntity[] = [];
    let args: PageArgs = { first: size };
    for (let i = 0; i < 1000; i++) {
      const page = await jobs().page(ctx, filter, args);
      out.push(...page.items);
      if (!page.hasNextPage) return out;
      args = { first: size, after: page.cursorOf(page.items[page.items.length - 1]) };
    }
    throw new Error('no end');
  }

  let defA: { arn: string; id: number };
  let defB: { arn: string; id: number };

  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
    contexts = testContexts(db.dataSource, f.services);
    const alice: AccountEntity = await f.user(uniq('alice'));
    const bob = await f.user(uniq('bob'));
    const admin = await f.user(uniq('admin'), { siteAdmin: true });
    tokens = {
      alice: await f.classicToken(alice, ['workflow']),
      bob: await f.classicToken(bob, ['workflow']),
      admin: await f.classicToken(admin, ['workflow']),
      none: await f.classicToken(alice, ['repo']),
    };
    defA = await defs().create(await as('alice'), { name: uniq('a'), definition: PASS, roleArn: ROLE });
    defB = await defs().create(await as('alice'), { name: uniq('b'), definition: PASS, roleArn: ROLE });
    for (let i = 0; i < 4; i++) await jobs().start(await as('alice'), { stateMachineArn: defA.arn, name: `alice-${i}` });
    for (let i = 0; i < 3; i++) await jobs().start(await as('bob'), { stateMachineArn: defA.arn, name: `bob-${i}` });
    for (let i = 0; i < 2; i++) await jobs().start(await as('bob'), { stateMachineArn: defB.arn, name: `bob-${i}` });
    await jobs().stop(await as('bob'), { executionArn: `${defA.arn.replace(':stateMachine:', ':execution:')}:bob-1` });
    // Three jobs started in the same millisecond: the keyset must break the tie by id.
    const same = new Date(Date.now() - 60_000);
    const rows = await db.dataSource.getRepository(WorkflowJobEntity).find({ where: { definitionId: defA.id }, order: { id: 'ASC' }, take: 3 });
    for (const r of rows) await db.dataSource.getRepository(WorkflowJobEntity).update({ id: r.id }, { startDate: same });
  });
  afterAll(() => db?.drop());

  it("a page's visibility SQL agrees with jobVisible for every viewer and filter", async () => {
    const everything = await db.dataSource.getRepository(WorkflowJobEntity).find();
    const filters: JobPageFilter[] = [{}, { definitionArn: defA.arn }, { definitionId: defB.id }, { status: 'ABORTED' }, { definitionArn: defA.arn, status: 'RUNNING' }];
    for (const who of ['alice', 'bob', 'admin'] as const) {
      const ctx = await as(who);
      for (const filter of filters) {
        const expected = everything
          .filter((j) => jobVisible(ctx.viewer, j))
          .filter((j) => (filter.definitionArn ? j.definitionId === defA.id : true))
          .filter((j) => (filter.definitionId !== undefined ? j.definitionId === filter.definitionId : true))
          .filter((j) => (filter.status ? j.status === filter.status : true))
          .sort((x, y) => y.startDate.getTime() - x.startDate.getTime() || y.id - x.id)
          .map((j) => j.id);
        const page = await jobs().page(ctx, filter, { first: 100 });
        expect({ who, filter, ids: page.items.map((j) => j.id) }).toEqual({ who, filter, ids: expected });
        expect(await page.totalCount()).toBe(expected.length);
      }
    }
    // The fixture means something: each sees a different set.
    const sizes = await Promise.all((['alice', 'bob', 'admin'] as const).map(async (w) => (await jobs().page(await as(w), {}, { first: 100 })).items.length));
    expect(sizes).toEqual([4, 5, 9]);
  });

  it('paging forward and backward neither skips nor repeats jobs with equal start dates', async () => {
    const admin = await as('admin');
    const all = (await jobs().page(admin, {}, { first: 100 })).items.map((j) => j.id);
    for (const size of [1, 2, 4]) expect((await walk(admin, {}, size)).map((j) => j.id)).toEqual(all);
    // Backward from the end with last/before.
    const back: number[] = [];
    let args: PageArgs = { last: 2 };
    for (let i = 0; i < 100; i++) {
      const page = await jobs().page(admin, {}, args);
      back.unshift(...page.items.map((j) => j.id));
      if (!page.hasPreviousPage) break;
      args = { last: 2, before: page.cursorOf(page.items[0]) };
    }
    expect(back).toEqual(all);
  });

  it('refuses what is not a filter or a cursor before any SQL; needs workflow read', async () => {
    const ctx = await as('alice');
    expect(await reason(jobs().page(ctx, { status: 'PAUSED' as never }, {}))).toBe('BAD_USER_INPUT');
    expect(await reason(jobs().page(ctx, { definitionArn: 'nope' }, {}))).toBe('INVALID_ARN');
    expect(await reason(jobs().page(ctx, { definitionArn: `${defA.arn}x` }, {}))).toBe('STATE_MACHINE_DOES_NOT_EXIST');
    expect(await reason(jobs().page(ctx, {}, { after: 'x' }))).toBe('INVALID_CURSOR');
    expect(await reason(jobs().page(ctx, {}, { first: 101 }))).toBe('INVALID_PAGINATION');
    expect(await reason(jobs().page(await as('none'), {}, {}))).toBe('FORBIDDEN');
    expect(await reason(jobs().page(await contexts.as(), {}, {}))).toBe('UNAUTHENTICATED');
    expect(await reason(defs().page(await as('none'), {}))).toBe('FORBIDDEN');
  });

  it("byId: a job hidden from the viewer is null; a definition is everyone's with workflow read", async () => {
    const bobsJob = (await jobs().page(await as('bob'), { definitionId: defB.id }, { first: 1 })).items[0];
    expect(await jobs().byId(await as('alice'), bobsJob.id)).toBeNull();
    expect((await jobs().byId(await as('bob'), bobsJob.id))?.arn).toBe(bobsJob.arn);
    expect((await jobs().byId(await as('admin'), bobsJob.id))?.arn).toBe(bobsJob.arn);
    expect(await jobs().byId(await as('admin'), 2_000_000)).toBeNull();
    expect((await defs().byId(await as('bob'), defA.id))?.arn).toBe(defA.arn);
    expect(await reason(defs().byId(await as('none'), defA.id))).toBe('FORBIDDEN');
  });

  it('history pages: forward, reversed, backward; a job the viewer may not see has none', async () => {
    const bob = await as('bob');
    const arn = `${defA.arn.replace(':stateMachine:', ':execution:')}:bob-1`;
    const job = await jobs().describe(bob, arn);
    const fwd = await jobs().historyPage(bob, job, { first: 10 });
    expect(fwd.items.map((e) => [e.id, e.type])).toEqual([
      [1, 'ExecutionStarted'],
      [2, 'ExecutionAborted'],
    ]);
    const rev = await jobs().historyPage(bob, job, { first: 1, reverse: true });
    expect(rev.items.map((e) => e.id)).toEqual([2]);
    const rev2 = await jobs().historyPage(bob, job, { first: 1, reverse: true, after: rev.cursorOf(rev.items[0]) });
    expect(rev2.items.map((e) => e.id)).toEqual([1]);
    expect(rev2.hasNextPage).toBe(false);
    const last = await jobs().historyPage(bob, job, { last: 1 });
    expect(last.items.map((e) => e.id)).toEqual([2]);
    expect(last.hasPreviousPage).toBe(true);
    expect(await reason(jobs().historyPage(await as('alice'), job, {}))).toBe('EXECUTION_DOES_NOT_EXIST');
  });

  it('delete answers the DELETING definition while jobs run, null once it is gone', async () => {
    const ctx = await as('alice');
    const d = await defs().create(ctx, { name: uniq('del'), definition: PASS, roleArn: ROLE });
    const { job } = await jobs().start(ctx, { stateMachineArn: d.arn });
    const deleting = await defs().delete(ctx, d.arn);
    expect(deleting).toMatchObject({ id: d.id, status: 'DELETING' });
    expect((await defs().delete(ctx, d.arn))?.status).toBe('DELETING');
    await jobs().stop(ctx, { executionArn: job.arn });
    expect(await defs().delete(ctx, d.arn)).toBeNull();
    expect(await reason(defs().describe(ctx, d.arn))).toBe('STATE_MACHINE_DOES_NOT_EXIST');
  });
});
