/**
 * Distributed Map at scale (issue 23 acceptance), with the REAL @aws-sdk/client-sfn: DMAP_ITEMS items (CI: 300; the
 * acceptance figure is DMAP_ITEMS=10000, see bench/README.md) with MaxConcurrency 50 and tolerated failures. Checked
 * structurally: the job succeeds with every item's result in order; every item has exactly one child execution that
 * ran to its end once (one ExecutionStarted and one end event in its history, for every child up to 500 and a sample
 * beyond); the run's counts agree; MaxConcurrency held (no sample of the run's counts shows more than 50 running);
 * /healthz answered every probe sent while the job ran. The peak RSS seen is printed.
 */
import { DescribeExecutionCommand, DescribeMapRunCommand, GetExecutionHistoryCommand, ListExecutionsCommand, ListMapRunsCommand, SFNClient, StartExecutionCommand, CreateStateMachineCommand, type ExecutionListItem } from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';

const N = Number(process.env.DMAP_ITEMS ?? 300);
const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

describe(`workflow Distributed Map over ${N} items`, () => {
  let t: TestApp;
  let sfn: SFNClient;

  beforeAll(async () => {
    t = await startTestApp({ env: { LOG_LEVEL: 'warn' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('dms'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  it('completes with MaxConcurrency 50 and tolerated failures; no item processed twice; /healthz responsive throughout', async () => {
    const { stateMachineArn } = await sfn.send(
      new CreateStateMachineCommand({
        name: 'dmap-scale',
        roleArn: ROLE,
        definition: JSON.stringify({
          StartAt: 'Fan',
          States: {
            Fan: {
              Type: 'Map',
              ItemsPath: '$.items',
              MaxConcurrency: 50,
              ToleratedFailurePercentage: 5,
              ItemSelector: { 'n.$': '$$.Map.Item.Value', 'i.$': '$$.Map.Item.Index' },
              ItemProcessor: {
                ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
                StartAt: 'Check',
                States: {
                  Check: { Type: 'Choice', Choices: [{ Variable: '$.n.bad', BooleanEquals: true, Next: 'Bad' }], Default: 'Work' },
                  Bad: { Type: 'Fail', Error: 'Item.Bad', Cause: 'an item that fails' },
                  Work: { Type: 'Task', Resource: 'echo', Parameters: { 'n.$': '$.n.v', 'i.$': '$.i' }, End: true },
                },
              },
              End: true,
            },
          },
        }),
      }),
    );
    // 2 % of the items fail (tolerated: 5 %)
    const items = Array.from({ length: N }, (_, v) => ({ v, bad: v % 50 === 7 }));
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify({ items }) }));

    let peakRss = process.memoryUsage().rss;
    // /healthz probed on its own schedule while the job runs: each answer is stamped with the job's status then.
    let probes = 0;
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const h = await fetch(`${t.url}/healthz`);
        expect(h.status).toBe(200);
        if (probing) probes++;
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    let maxRunning = 0;
    let mapRunArn: string | undefined;
    for (;;) {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      mapRunArn ??= (await sfn.send(new ListMapRunsCommand({ executionArn }))).mapRuns?.[0]?.mapRunArn;
      if (mapRunArn) maxRunning = Math.max(maxRunning, (await sfn.send(new DescribeMapRunCommand({ mapRunArn }))).executionCounts!.running!);
      const d = await sfn.send(new DescribeExecutionCommand({ executionArn }));
      if (d.status !== 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    probing = false;
    await prober;
    const d = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    expect([d.status, d.error, d.cause]).toEqual(['SUCCEEDED', undefined, undefined]);
    const out = JSON.parse(d.output!) as unknown[];
    expect(out).toHaveLength(N);
    items.forEach((it, i) => expect(out[i]).toEqual(it.bad ? { Error: 'Item.Bad', Cause: 'an item that fails' } : { n: it.v, i }));
    expect(maxRunning).toBeLessThanOrEqual(50);
    // answered while the job was running (probes sent after it ended are not counted)
    expect(probes).toBeGreaterThanOrEqual(1);

    const run = await sfn.send(new DescribeMapRunCommand({ mapRunArn }));
    const bad = items.filter((x) => x.bad).length;
    expect(run.status).toBe('SUCCEEDED');
    expect(run.itemCounts).toMatchObject({ total: N, succeeded: N - bad, failed: bad, running: 0, pending: 0, aborted: 0 });
    expect(run.executionCounts).toMatchObject({ total: N, succeeded: N - bad, failed: bad });

    // one child per item, each ran to its end once
    const kids: ExecutionListItem[] = [];
    let nextToken: string | undefined;
    do {
      const page = await sfn.send(new ListExecutionsCommand({ mapRunArn, maxResults: 1000, nextToken }));
      kids.push(...page.executions!);
      nextToken = page.nextToken;
    } while (nextToken);
    expect(kids).toHaveLength(N);
    expect(new Set(kids.map((k) => k.executionArn)).size).toBe(N);
    const step = Math.max(1, Math.floor(N / 500));
    for (let i = 0; i < N; i += step) {
      const types = ((await sfn.send(new GetExecutionHistoryCommand({ executionArn: kids[i].executionArn }))).events ?? []).map((e) => e.type);
      expect(types.filter((x) => x === 'ExecutionStarted')).toHaveLength(1);
      expect(types.filter((x) => x === 'ExecutionSucceeded' || x === 'ExecutionFailed')).toEqual([items[i].bad ? 'ExecutionFailed' : 'ExecutionSucceeded']);
      const input = JSON.parse((await sfn.send(new DescribeExecutionCommand({ executionArn: kids[i].executionArn }))).input!);
      expect(input).toEqual({ n: items[i], i });
    }
    const parent = ((await sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }))).events ?? []).map((e) => e.type);
    expect(parent).toEqual(['ExecutionStarted', 'MapStateEntered', 'MapStateStarted', 'MapRunStarted', 'MapRunSucceeded', 'MapStateSucceeded', 'MapStateExited', 'ExecutionSucceeded']);
    const secs = (d.stopDate!.getTime() - d.startDate!.getTime()) / 1000;
    console.log(`distributed map: ${N} items in ${secs.toFixed(1)} s (${Math.round(N / secs)} items/s), ${probes} /healthz probes answered, peak RSS ${Math.round(peakRss / 1048576)} MiB, at most ${maxRunning} children running`);
    // 10,000 items took 567 s on PostgreSQL on a shared 2-core machine (bench/README.md): the bound grows with N.
  }, Math.max(600_000, N * 120));
});
