/**
 * Express executions and a process that dies (kill -9), as Step Functions guarantees them: an asynchronous one
 * (StartExecution of an EXPRESS machine) runs at least once, so the next process runs it again from its start once
 * its lease (WORKFLOW_LEASE_SECONDS=2 here) has run out, and its record goes when it ends; a synchronous one
 * (StartSyncExecution) runs at most once: its client gets no answer and nobody runs it again. Seen in the
 * processes' /metrics (workflow_express_executions_total) and the records left in the database.
 */
import { CreateStateMachineCommand, SFNClient, StartExecutionCommand, StartSyncExecutionCommand } from '@aws-sdk/client-sfn';
import { openDatabase } from '../../ormconfig';
import { testDialect } from '../helpers/db';
import { killHard, killStillRunning, ServerProcess, startServerProcess } from '../helpers/process';
import { seedWorkflowKey, SharedDatabase, sharedDatabase } from '../helpers/shared-db';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

describe(`workflow Express executions and kill -9 (${testDialect()})`, () => {
  let db: SharedDatabase;
  let key: { accessKeyId: string; secretAccessKey: string };
  const running: ServerProcess[] = [];
  const env = () => ({ DATABASE_URL: db.url, SEED_DEMO: 'false', LOG_LEVEL: 'warn', WORKFLOW_LEASE_SECONDS: '2', GATEWAY_SECRET_KEY: 'express-crash-server-key' });
  const client = (url: string) => new SFNClient({ region: 'us-east-1', endpoint: `${url}/workflow`, credentials: key, disableHostPrefix: true, maxAttempts: 1 });
  const metrics = async (url: string) => {
    const text = await (await fetch(`${url}/metrics`)).text();
    const total = (event: string) => Number(new RegExp(`^workflow_express_executions_total\\{event="${event}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    return {
      started: total('started'),
      succeeded: total('succeeded'),
      recovered: total('recovered'),
      running: Number(/^workflow_express_executions_running (\d+)$/m.exec(text)?.[1] ?? NaN),
    };
  };
  const until = async (what: string, check: () => Promise<boolean>, ms = 20_000) => {
    const stop = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > stop) throw new Error(`${what}: not reached`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const records = async () => {
    const ds = await openDatabase({ database: db.database });
    try {
      return (await ds.query('SELECT arn, attempts FROM workflow_express_runs')) as Array<{ arn: string; attempts: number | string }>;
    } finally {
      await ds.destroy();
    }
  };

  beforeAll(async () => {
    db = await sharedDatabase('wf-express-crash');
    key = await seedWorkflowKey(db, 'wf-express-crash-user', 'express-crash-server-key');
  }, 60_000);

  afterAll(async () => {
    await killStillRunning(running);
    await db?.drop();
  });

  it('an asynchronous execution runs again after its process died; a synchronous one does not', async () => {
    const first = await startServerProcess(env());
    running.push(first);
    const a = client(first.url);
    const waits = JSON.stringify({ StartAt: 'Nap', States: { Nap: { Type: 'Wait', Seconds: 3, Next: 'Done' }, Done: { Type: 'Pass', Result: 'done', End: true } } });
    const asyncArn = (await a.send(new CreateStateMachineCommand({ name: 'express-async', roleArn: ROLE, definition: waits, type: 'EXPRESS' }))).stateMachineArn!;
    const syncArn = (await a.send(new CreateStateMachineCommand({ name: 'express-sync', roleArn: ROLE, definition: waits, type: 'EXPRESS' }))).stateMachineArn!;

    const { executionArn } = await a.send(new StartExecutionCommand({ stateMachineArn: asyncArn, name: 'survivor', input: '{}' }));
    // Recorded before the answer, with the execution's own ARN; the synchronous one is recorded nowhere.
    const sync = a.send(new StartSyncExecutionCommand({ stateMachineArn: syncArn, name: 'lost', input: '{}' })).then(
      () => 'answered',
      () => 'no answer',
    );
    await until('both running', async () => (await metrics(first.url)).running === 2);
    expect((await records()).map((r) => [r.arn, Number(r.attempts)])).toEqual([[executionArn, 1]]);
    await killHard(first);
    expect(await sync).toBe('no answer');
    a.destroy();

    const second = await startServerProcess(env());
    running.push(second);
    // Once the dead process's lease has run out, this one runs the asynchronous execution again, to its end.
    await until('the asynchronous execution run again and ended', async () => {
      const m = await metrics(second.url);
      return m.succeeded === 1 && m.running === 0;
    });
    const m = await metrics(second.url);
    expect(m).toMatchObject({ started: 1, recovered: 1, succeeded: 1, running: 0 });
    // Its record went with its end; the synchronous one was never run here (nothing started but the one).
    expect(await records()).toEqual([]);
    // A later look finds nothing more to run.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await metrics(second.url)).toMatchObject({ started: 1, recovered: 1 });
  }, 90_000);
});
