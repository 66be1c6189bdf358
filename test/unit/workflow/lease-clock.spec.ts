/**
 * Runner leases on the database's clock (PostgreSQL): a worker whose own clock runs an hour ahead must not take a
 * live lease, nor see a job leased elsewhere as due. On SQLite (a local file: one machine, one clock) the process
 * clock is the clock, so the skewed worker's view is what the machine's clock says.
 */
import { WorkflowJobEntity } from '../../../entities/workflow';
import { WorkflowRunner } from '../../../src/services/workflow/runner/runner';
import { RunnerStore } from '../../../src/services/workflow/runner/store';
import { passDefinition, startedPassJob } from '../../fixtures/workflow';
import { openTestDatabase, TestDatabase } from '../../helpers/db';

describe('workflow runner leases', () => {
  let db: TestDatabase;
  let jobId: number;
  beforeAll(async () => {
    db = await openTestDatabase();
    jobId = await startedPassJob(db.dataSource);
  });
  afterAll(() => db?.drop());

  it('a live lease is not taken, nor its job listed as due, by another runner; on PostgreSQL not even by one whose clock runs an hour ahead', async () => {
    const store = new RunnerStore(db.dataSource);
    const held = await store.claim(jobId, 'runner-a', 60_000);
    expect(held?.leaseOwner).toBe('runner-a');
    const postgres = db.dataSource.options.type === 'postgres';
    // PostgreSQL: only Date is faked (timers and I/O run as usual): this process's clock is an hour ahead, and the
    // lease times come from the database's clock. (SQLite is this machine's file: its clock is this machine's;
    // better-sqlite3 cannot bind a faked Date, so it runs with the real one.)
    if (postgres) {
      jest.useFakeTimers({ now: Date.now() + 3_600_000, doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'] });
    }
    try {
      expect(await store.claim(jobId, 'runner-b', 60_000)).toBeNull();
      expect(await store.due(100)).not.toContain(jobId);
    } finally {
      jest.useRealTimers();
    }
    const row = await db.dataSource.getRepository(WorkflowJobEntity).findOneByOrFail({ id: jobId });
    expect(row.leaseOwner).toBe('runner-a');
    expect(row.leaseUntil!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(row.leaseUntil!.getTime()).toBeLessThan(Date.now() + 61_000);
  });
});

describe('workflow runner leases: jobs written leased to the embedded runner', () => {
  let db: TestDatabase;
  afterAll(() => db?.drop());

  it('a job started leased to this process\'s runner is not taken by another runner, nor listed as due, on PostgreSQL even when this process\'s clock runs an hour behind', async () => {
    db = await openTestDatabase();
    const { f, contexts, ctx, def } = await passDefinition(db.dataSource);
    // The embedded runner's hook (setup.ts), with a poll that does not come round during the test.
    const runner = new WorkflowRunner(contexts.deps, contexts.deps.services, { owner: 'runner-a', leaseMs: 60_000, pollMs: 3_600_000 });
    runner.start();
    f.services.workflowJobs.setHooks({ leaseOnStart: () => runner.leaseForNewJob() });
    const postgres = db.dataSource.options.type === 'postgres';
    // As above: only Date is faked, on PostgreSQL (better-sqlite3 cannot bind a faked Date; SQLite is one machine's clock).
    if (postgres) {
      jest.useFakeTimers({ now: Date.now() - 3_600_000, doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'] });
    }
    let jobId: number;
    try {
      jobId = (await f.services.workflowJobs.start(ctx, { stateMachineArn: def.arn })).job.id;
    } finally {
      jest.useRealTimers();
      f.services.workflowJobs.setHooks({});
      await runner.stop();
    }
    const store = new RunnerStore(db.dataSource);
    expect(await store.due(100)).not.toContain(jobId);
    expect(await store.claim(jobId, 'runner-b', 60_000)).toBeNull();
    const row = await db.dataSource.getRepository(WorkflowJobEntity).findOneByOrFail({ id: jobId });
    expect(row.leaseOwner).toBe('runner-a');
    expect(row.leaseUntil!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(row.leaseUntil!.getTime()).toBeLessThan(Date.now() + 61_000);
  });
});
