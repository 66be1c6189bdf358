/**
 * Asynchronous Express executions left by a process that died (their lease run out) or closed (lease released),
 * taken over by several processes looking at once (WorkflowExpressService.recover): each is taken by exactly one
 * (a conditional UPDATE on the lease) and run once to its end, its record then gone; a record whose lease is still
 * held is left alone. Several services over one database stand in for several gateway processes; on PostgreSQL
 * their statements run on separate connections at once.
 */
import { WorkflowExpressRunEntity } from '../../entities/workflow';
import { WorkflowExpressService } from '../../src/services/workflow/express.service';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { testDialect } from '../helpers/db';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const PASS = JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass', Result: 'done', End: true } } });

describe(`workflow Express executions taken over by processes looking at once (${testDialect()})`, () => {
  let t: TestApp;
  const services: WorkflowExpressService[] = [];

  beforeAll(async () => {
    // nothing of the app's own looks for executions to run again: only the services below do
    t = await startTestApp({ env: { WORKFLOW_RUNNER: 'off', LOG_LEVEL: 'warn' } });
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.close()));
    await t?.close();
  });

  it('each free record is run again by exactly one of them; a held one by none', async () => {
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('express-rec'));
    const repo = t.db.dataSource.getRepository(WorkflowExpressRunEntity);
    const N = 12;
    const now = Date.now();
    const record = (i: number, lease: { leaseOwner: string | null; leaseUntil: Date | null }) =>
      repo.create({
        arn: `arn:aws:states:us-east-1:000000000000:express:rec:${uniq('e')}-${i}:x`,
        name: `e${i}`,
        definitionName: 'rec',
        definitionText: PASS,
        roleArn: ROLE,
        input: JSON.stringify({ i }),
        traceHeader: null,
        startedBy: user.id,
        startedCredential: null,
        startDate: new Date(now - 60_000),
        attempts: 1,
        ...lease,
      });
    // half released by a process that closed, half left by one that died (lease run out a minute ago)
    const free = await repo.save(Array.from({ length: N }, (_, i) => record(i, i % 2 ? { leaseOwner: null, leaseUntil: null } : { leaseOwner: 'dead', leaseUntil: new Date(now - 60_000) })));
    const held = await repo.save(record(N, { leaseOwner: 'alive', leaseUntil: new Date(now + 3_600_000) }));

    const deps = t.app.deps;
    for (let i = 0; i < 4; i++) services.push(new WorkflowExpressService({ versions: deps.services.workflowVersions, tasks: deps.services.workflowTasks }));
    // each looks at once when it starts, and again here
    for (const s of services) s.start(deps);
    await Promise.all(services.map((s) => s.recoverNow()));

    const stop = Date.now() + 30_000;
    while ((await repo.count()) > 1 && Date.now() < stop) await new Promise((r) => setTimeout(r, 50));
    const left = await repo.find();
    expect(left.map((r) => [r.id, r.leaseOwner, r.attempts])).toEqual([[held.id, 'alive', 1]]);
    const sum = (k: 'recovered' | 'started' | 'succeeded') => services.reduce((n, s) => n + s.stats[k], 0);
    expect([sum('recovered'), sum('started'), sum('succeeded')]).toEqual([N, N, N]);
    expect(free).toHaveLength(N);
  });
});
