/**
 * A job's wake time as the runner writes it: a transition that goes on at once leaves a wake time that is already due
 * as it was (the job stays due for any runner once its lease is gone, and the row's indexed columns do not move); a
 * wait writes its own time; a wake time still to come is brought forward to now.
 */
import { WorkflowJobEntity } from '../../../entities/workflow';
import { RunnerStore, Transition } from '../../../src/services/workflow/runner/store';
import { startedPassJob } from '../../fixtures/workflow';
import { openTestDatabase, TestDatabase } from '../../helpers/db';

describe('workflow runner: the wake time of a running job', () => {
  let db: TestDatabase;
  let store: RunnerStore;
  let job: WorkflowJobEntity;
  beforeAll(async () => {
    db = await openTestDatabase();
    const started = await startedPassJob(db.dataSource);
    store = new RunnerStore(db.dataSource);
    job = (await store.claim(started, 'runner-a', 60_000))!;
    expect(job).not.toBeNull();
  });
  afterAll(() => db?.drop());

  const row = () => db.dataSource.getRepository(WorkflowJobEntity).findOneByOrFail({ id: job.id });
  /** A RUNNING transition of the job by runner-a, from the version last written. */
  async function step(wakeAt: Date, waits: boolean): Promise<void> {
    const t: Transition = { checkpoint: '{}', currentState: 'A', status: 'RUNNING', output: null, error: null, cause: null, stopDate: null, leaseOwner: 'runner-a', leaseMs: 60_000, wakeAt, waits };
    expect(await store.persist(job.id, job.version, 'runner-a', t, [])).toBe(true);
    job = { ...job, version: job.version + 1 };
  }

  it('a transition that goes on at once keeps a due wake time; the job is due once its lease is gone', async () => {
    const before = (await row()).wakeAt!;
    expect(before.getTime()).toBeLessThanOrEqual(Date.now());
    await step(new Date(before.getTime() + 5_000), false);
    expect((await row()).wakeAt!.getTime()).toBe(before.getTime());
    expect(await store.release(job.id, job.version, 'runner-a')).toBe(true);
    job = { ...job, version: job.version + 1 };
    expect(await store.due(1000)).toContain(job.id);
    job = (await store.claim(job.id, 'runner-a', 60_000))!;
    expect(job).not.toBeNull();
  });

  it('a wait writes its own time, and the job is not due before it', async () => {
    const later = new Date(Date.now() + 3_600_000);
    await step(later, true);
    expect((await row()).wakeAt!.getTime()).toBe(later.getTime());
    expect(await store.release(job.id, job.version, 'runner-a')).toBe(true);
    job = { ...job, version: job.version + 1 };
    expect(await store.due(1000)).not.toContain(job.id);
    job = (await store.claim(job.id, 'runner-a', 60_000))!;
    expect(job).not.toBeNull();
  });

  it('a transition that goes on at once brings a wake time still to come forward to now', async () => {
    expect((await row()).wakeAt!.getTime()).toBeGreaterThan(Date.now());
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    await step(now, false);
    expect((await row()).wakeAt!.getTime()).toBe(now.getTime());
  });
});
