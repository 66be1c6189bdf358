/**
 * The workflow store under concurrency (issue 20, "Tests that keep it so"), meant for PostgreSQL (DATABASE_URL) and
 * run on SQLite too: StopExecution racing the runner's transitions, UpdateStateMachine/DeleteStateMachine racing each
 * other and StartExecution, StartExecution of one name by two users at once. Each race has one winner per
 * transition, checked afterwards in the rows and the history.
 */
import {
  CreateStateMachineCommand,
  DeleteStateMachineCommand,
  DescribeExecutionCommand,
  DescribeStateMachineCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
  UpdateStateMachineCommand,
} from '@aws-sdk/client-sfn';
import { WorkflowDefinitionEntity, WorkflowJobEntity, WorkflowJobEventEntity } from '../../entities/workflow';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
/** Runs until stopped (a Pass loop taking turns with other jobs). */
const LOOP = JSON.stringify({
  StartAt: 'A',
  States: {
    A: { Type: 'Pass', Next: 'C' },
    C: { Type: 'Choice', Choices: [{ Variable: '$.never', IsPresent: true, Next: 'Done' }], Default: 'A' },
    Done: { Type: 'Succeed' },
  },
});
const passWith = (n: number) => JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass', Result: { n }, End: true } } });

async function settled<T>(p: Promise<T>): Promise<{ ok: true; v: T } | { ok: false; name: string; message: string }> {
  try {
    return { ok: true, v: await p };
  } catch (e) {
    const err = e as { name: string; message: string };
    return { ok: false, name: err.name, message: err.message };
  }
}

describe('workflow store under concurrency', () => {
  let t: TestApp;
  let sfn: Record<'alice' | 'bob', SFNClient>;

  const create = async (definition: string, c = sfn.alice) =>
    (await c.send(new CreateStateMachineCommand({ name: uniq('cc'), roleArn: ROLE, definition }))).stateMachineArn!;
  const eventsOf = async (jobId: number) =>
    (await t.db.dataSource.getRepository(WorkflowJobEventEntity).find({ where: { jobId }, order: { eventId: 'ASC' } })).map((e) => ({ id: e.eventId, type: e.type }));

  beforeAll(async () => {
    t = await startTestApp();
    const fx = new IdentityFixtures(t.db.dataSource);
    const client = async (login: string) => {
      const u = await fx.user(uniq(login));
      const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: u.login });
      return new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
    };
    sfn = { alice: await client('alice'), bob: await client('bob') };
  });
  afterAll(async () => {
    for (const c of Object.values(sfn ?? {})) c.destroy();
    await t?.close();
  });

  it('StopExecution racing the runner: one stop wins per job, ExecutionAborted is its last event, nothing is written after it', async () => {
    const arn = await create(LOOP);
    const jobs = await Promise.all(Array.from({ length: 6 }, () => sfn.alice.send(new StartExecutionCommand({ stateMachineArn: arn }))));
    const repo = t.db.dataSource.getRepository(WorkflowJobEntity);
    // Let the runner get going on every job (transitions being written while the stops arrive).
    for (const j of jobs) {
      const until = Date.now() + 20_000;
      while ((await repo.findOneByOrFail({ arn: j.executionArn! })).version < 3) {
        if (Date.now() > until) throw new Error('the runner did not start the job');
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    const stops = await Promise.all(
      jobs.flatMap((j) => Array.from({ length: 3 }, (_, i) => settled(sfn.alice.send(new StopExecutionCommand({ executionArn: j.executionArn!, error: `Stop.${i}` }))))),
    );
    for (let j = 0; j < jobs.length; j++) {
      const mine = stops.slice(j * 3, j * 3 + 3);
      expect(mine.filter((s) => s.ok)).toHaveLength(1);
      for (const s of mine) if (!s.ok) expect(s.name).toBe('ValidationException');
    }
    await new Promise((r) => setTimeout(r, 300));
    for (const j of jobs) {
      const row = await repo.findOneByOrFail({ arn: j.executionArn! });
      expect(row.status).toBe('ABORTED');
      expect(row.leaseOwner).toBeNull();
      const events = await eventsOf(row.id);
      // ids 1..n without gaps or duplicates, one ExecutionAborted and it is the last, no other end
      expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
      expect(events.filter((e) => e.type === 'ExecutionAborted')).toHaveLength(1);
      expect(events[events.length - 1].type).toBe('ExecutionAborted');
      expect(events.filter((e) => /^Execution(Succeeded|Failed|TimedOut)$/.test(e.type))).toEqual([]);
      const d = await sfn.alice.send(new DescribeExecutionCommand({ executionArn: j.executionArn! }));
      expect(d.status).toBe('ABORTED');
      expect(stops.some((s) => s.ok && d.error === row.error)).toBe(true);
      // still nothing more after a while: the runner let go
      expect((await eventsOf(row.id)).length).toBe(events.length);
    }
  }, 60_000);

  it('concurrent UpdateStateMachine: every update gets its own revision and the stored definition is one of them whole; jobs started meanwhile run a snapshot of one', async () => {
    const arn = await create(passWith(0));
    const work: Array<Promise<unknown>> = [];
    for (let i = 1; i <= 10; i++) work.push(settled(sfn.alice.send(new UpdateStateMachineCommand({ stateMachineArn: arn, definition: passWith(i) }))));
    for (let i = 0; i < 6; i++) work.push(settled(sfn.alice.send(new StartExecutionCommand({ stateMachineArn: arn }))));
    const results = (await Promise.all(work)) as Array<Awaited<ReturnType<typeof settled<any>>>>;
    const updates = results.slice(0, 10);
    expect(updates.every((u) => u.ok)).toBe(true);
    const revisions = updates.map((u) => (u.ok ? u.v.revisionId : ''));
    expect(new Set(revisions).size).toBe(10);
    const d = await sfn.alice.send(new DescribeStateMachineCommand({ stateMachineArn: arn }));
    const i = revisions.indexOf(d.revisionId!);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(d.definition).toBe(passWith(i + 1));
    const texts = new Set(Array.from({ length: 11 }, (_, n) => passWith(n)));
    const jobs = await t.db.dataSource.getRepository(WorkflowJobEntity).find({ where: { definitionId: (await t.db.dataSource.getRepository(WorkflowDefinitionEntity).findOneByOrFail({ arn })).id } });
    expect(jobs).toHaveLength(6);
    for (const j of jobs) expect(texts.has(j.definitionText)).toBe(true);
  }, 60_000);

  it('DeleteStateMachine racing updates and starts: the definition goes once its jobs end; nothing of it is left; the losers get the documented errors', async () => {
    const arn = await create(passWith(0));
    const defId = (await t.db.dataSource.getRepository(WorkflowDefinitionEntity).findOneByOrFail({ arn })).id;
    const work: Array<Promise<Awaited<ReturnType<typeof settled<unknown>>>>> = [];
    for (let i = 0; i < 8; i++) {
      work.push(settled(sfn.alice.send(new UpdateStateMachineCommand({ stateMachineArn: arn, definition: passWith(i + 1) }))));
      work.push(settled(sfn.alice.send(new StartExecutionCommand({ stateMachineArn: arn }))));
      if (i % 3 === 0) work.push(settled(sfn.alice.send(new DeleteStateMachineCommand({ stateMachineArn: arn }))));
    }
    const results = await Promise.all(work);
    for (const r of results) if (!r.ok) expect(['StateMachineDoesNotExist', 'StateMachineDeleting']).toContain(r.name);
    // Started jobs are Pass jobs: when they end, the DELETING definition goes with them.
    const defs = t.db.dataSource.getRepository(WorkflowDefinitionEntity);
    const until = Date.now() + 20_000;
    while (await defs.existsBy({ arn })) {
      if (Date.now() > until) throw new Error(`the definition is still there: ${(await defs.findOneByOrFail({ arn })).status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // Its jobs and their history went with it.
    expect(await t.db.dataSource.getRepository(WorkflowJobEntity).countBy({ definitionId: defId })).toBe(0);
    const orphans = await t.db.dataSource.query('SELECT COUNT(*) AS n FROM workflow_jobs j WHERE NOT EXISTS (SELECT 1 FROM workflow_definitions d WHERE d.id = j.definition_id)');
    expect(Number(orphans[0].n)).toBe(0);
    expect((await settled(sfn.alice.send(new DescribeStateMachineCommand({ stateMachineArn: arn })))).ok).toBe(false);
  }, 60_000);

  it('StartExecution of one name by two users at once: one job, one ExecutionStarted; its starter gets it back, the other user only "taken"', async () => {
    const arn = await create(JSON.stringify({ StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 5, End: true } } }));
    const name = uniq('same');
    const calls = Array.from({ length: 16 }, (_, i) => ({ who: i % 2 === 0 ? ('alice' as const) : ('bob' as const) }));
    const results = await Promise.all(calls.map((c) => settled(sfn[c.who].send(new StartExecutionCommand({ stateMachineArn: arn, name, input: '{"a":1}' })))));
    const jobs = await t.db.dataSource.getRepository(WorkflowJobEntity).find({ where: { name } });
    expect(jobs).toHaveLength(1);
    const winnerArn = jobs[0].arn;
    const okBy = new Set(calls.filter((_, i) => results[i].ok).map((c) => c.who));
    expect(okBy.size).toBe(1); // only the winner's user gets the job (idempotent repeats of the same input)
    results.forEach((r, i) => {
      if (r.ok) expect((r.v as { executionArn: string }).executionArn).toBe(winnerArn);
      else {
        expect(okBy.has(calls[i].who)).toBe(false);
        expect(r.name).toBe('ExecutionAlreadyExists');
        expect(r.message).not.toContain(winnerArn);
      }
    });
    const events = await eventsOf(jobs[0].id);
    expect(events.filter((e) => e.type === 'ExecutionStarted')).toHaveLength(1);
    expect(events[0]).toEqual({ id: 1, type: 'ExecutionStarted' });
    await sfn[[...okBy][0]].send(new StopExecutionCommand({ executionArn: winnerArn }));
  }, 60_000);
});
