/**
 * Resource bounds of the workflow service with hostile data (issue 20.5), driven by the real @aws-sdk/client-sfn
 * against the embedded runner: history pages bounded in bytes (the SDK's paginator walks them as usual), and the
 * fan-out cases of the issue (1,000 Parallel branches of a 100 KB input, a Map copying a 200 KB input into 120
 * iterations, a Parameters that multiplies its input) checked structurally: bytes stored (history details + the
 * checkpoint, read from the database), characters of JSON the engine built, history pages under their budget.
 */
import { CreateStateMachineCommand, GetExecutionHistoryCommand, paginateGetExecutionHistory, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { WorkflowJobEntity } from '../../entities/workflow';
import { engineStats } from '../../src/services/workflow/engine';
import { queryRows } from '../../src/db/rows';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { waitForExecution } from '../helpers/workflow-jobs';
import { signedCall } from '../helpers/sigv4';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const PAGE_BYTES = 300 * 1024;
const JOB_HISTORY_BYTES = 8 * 1024 * 1024;
const KB = 1024;
const MB = 1024 * 1024;

describe('workflow resource bounds', () => {
  let t: TestApp;
  let sfn: SFNClient;
  let key: { accessKeyId: string; secretAccessKey: string };
  let token: string;

  const define = async (definition: object) =>
    (await sfn.send(new CreateStateMachineCommand({ name: uniq('def'), roleArn: ROLE, definition: JSON.stringify(definition) }))).stateMachineArn!;
  const run = async (definition: object, input: unknown = {}) => {
    const arn = await define(definition);
    return (await sfn.send(new StartExecutionCommand({ stateMachineArn: arn, input: JSON.stringify(input) }))).executionArn!;
  };
  const settle = (executionArn: string, timeoutMs = 30_000) => waitForExecution(sfn, executionArn, { timeoutMs });

  beforeAll(async () => {
    t = await startTestApp({ env: { WORKFLOW_HISTORY_PAGE_BYTES: String(PAGE_BYTES), WORKFLOW_JOB_HISTORY_BYTES: String(JOB_HISTORY_BYTES) } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('bounds'));
    token = await fx.classicToken(user, ['workflow']);
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    key = { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: key, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  it('GetExecutionHistory pages stop before the byte budget (with a nextToken); the paginator still gets every event in order', async () => {
    const states: Record<string, object> = {};
    for (let i = 0; i < 6; i++) states[`S${i}`] = i < 5 ? { Type: 'Pass', Next: `S${i + 1}` } : { Type: 'Pass', End: true };
    const big = { blob: 'x'.repeat(100 * 1024) };
    const arn = await run({ StartAt: 'S0', States: states }, big);
    expect((await settle(arn)).status).toBe('SUCCEEDED');

    // Every event but the first of a page fits the budget; 100 KB events: 2 or 3 per page, not the default 100.
    const sizes: number[] = [];
    for (const reverseOrder of [false, true]) {
      const ids: number[] = [];
      let nextToken: string | undefined;
      do {
        const res = await signedCall(t.url, {
          key,
          target: 'AWSStepFunctions.GetExecutionHistory',
          contentType: 'application/x-amz-json-1.0',
          body: JSON.stringify({ executionArn: arn, reverseOrder, ...(nextToken ? { nextToken } : {}) }),
        });
        expect(res.status).toBe(200);
        const text = JSON.stringify(res.body);
        sizes.push(Buffer.byteLength(text));
        const body = res.body as { events: Array<{ id: number }>; nextToken?: string };
        expect(body.events.length).toBeGreaterThan(0);
        expect(Buffer.byteLength(text)).toBeLessThan(PAGE_BYTES + 2048);
        ids.push(...body.events.map((e) => e.id));
        nextToken = body.nextToken;
      } while (nextToken);
      const all = Array.from({ length: ids.length }, (_, i) => (reverseOrder ? ids.length - i : i + 1));
      expect(ids).toEqual(all);
      expect(ids.length).toBe(14); // started, 6 x entered/exited, succeeded
    }
    expect(sizes.length).toBeGreaterThan(4);

    const viaSdk: number[] = [];
    for await (const page of paginateGetExecutionHistory({ client: sfn }, { executionArn: arn })) viaSdk.push(...page.events!.map((e) => e.id!));
    expect(viaSdk).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    // The graph's history connection keeps to the same budget: fewer nodes than asked for, hasNextPage, and the
    // cursors walk every event (forward and backward).
    const HISTORY = `query($arn: String!, $first: Int, $after: String, $last: Int, $before: String) { workflowJob(arn: $arn) {
      history(first: $first, after: $after, last: $last, before: $before) { pageInfo { hasNextPage hasPreviousPage startCursor endCursor } nodes { id details } } } }`;
    const walked: number[] = [];
    let after: string | undefined;
    for (let guard = 0; guard < 20; guard++) {
      const r = await gql(t.url, HISTORY, { arn, first: 100, after }, token);
      expect(r.body.errors).toBeUndefined();
      expect(Buffer.byteLength(JSON.stringify(r.body))).toBeLessThan(PAGE_BYTES + 4 * KB);
      const h = r.body.data.workflowJob.history;
      expect(h.nodes.length).toBeGreaterThan(0);
      walked.push(...h.nodes.map((n: { id: number }) => n.id));
      if (!h.pageInfo.hasNextPage) break;
      after = h.pageInfo.endCursor;
    }
    expect(walked).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    const tail = (await gql(t.url, HISTORY, { arn, last: 100 }, token)).body.data.workflowJob.history;
    expect(tail.pageInfo.hasPreviousPage).toBe(true);
    expect(tail.nodes[tail.nodes.length - 1].id).toBe(14);
    expect(tail.nodes.length).toBeLessThan(14);

    // maxResults still bounds a page in events.
    expect((await sfn.send(new GetExecutionHistoryCommand({ executionArn: arn, maxResults: 1 }))).events).toHaveLength(1);
  });

  /** Bytes the job stored: its history events' details and its checkpoint, as the database holds them. */
  const storedBytes = async (executionArn: string) => {
    const job = await t.db.dataSource.getRepository(WorkflowJobEntity).findOneByOrFail({ arn: executionArn });
    const [row] = await queryRows<{ n: number | string | null }>(t.db.dataSource.manager, 'SELECT SUM(LENGTH(details)) AS n FROM workflow_job_events WHERE job_id = ?', [job.id]);
    return { history: Number(row?.n ?? 0), checkpoint: job.checkpoint?.length ?? 0 };
  };
  /** Every history page's answer size, walking the whole history with the page budget. */
  const pageSizes = async (executionArn: string) => {
    const sizes: number[] = [];
    let nextToken: string | undefined;
    do {
      const res = await signedCall(t.url, {
        key,
        target: 'AWSStepFunctions.GetExecutionHistory',
        contentType: 'application/x-amz-json-1.0',
        body: JSON.stringify({ executionArn, ...(nextToken ? { nextToken } : {}) }),
      });
      expect(res.status).toBe(200);
      sizes.push(Buffer.byteLength(JSON.stringify(res.body)));
      nextToken = (res.body as { nextToken?: string }).nextToken;
    } while (nextToken);
    return sizes;
  };

  it('1,000 Parallel branches of a 100 KB input: the job fails with States.DataLimitExceeded at its history quota; stored bytes stay under it', async () => {
    const def = {
      StartAt: 'Fan',
      States: {
        Fan: {
          Type: 'Parallel',
          Branches: Array.from({ length: 1000 }, (_, i) => ({ StartAt: `B${i}`, States: { [`B${i}`]: { Type: 'Pass', Result: i, End: true } } })),
          End: true,
        },
      },
    };
    const before = engineStats.serializedChars;
    const rss0 = process.memoryUsage().rss;
    const arn = await run(def, { blob: 'x'.repeat(100 * KB) });
    const d = await settle(arn, 60_000);
    expect([d.status, d.error]).toEqual(['FAILED', 'States.DataLimitExceeded']);
    const stored = await storedBytes(arn);
    // Before: 401 MB stored (1,000 copies of the input in events and in every checkpoint).
    expect(stored.history + stored.checkpoint).toBeLessThan(JOB_HISTORY_BYTES + 256 * KB);
    expect(stored.checkpoint).toBeLessThan(300 * KB);
    expect(engineStats.serializedChars - before).toBeLessThan(4 * MB);
    for (const n of await pageSizes(arn)) expect(n).toBeLessThan(PAGE_BYTES + 2 * KB);
    if (process.env.SHOW_FIGURES) console.log('parallel', stored, 'rss +MB', Math.round((process.memoryUsage().rss - rss0) / MB));
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  }, 90_000);

  it('a Map copying a 200 KB input into 120 iterations: inputs derived per iteration, the checkpoint holds the input once, the quota bounds the history', async () => {
    const def = {
      StartAt: 'M',
      States: {
        M: {
          Type: 'Map',
          ItemsPath: '$.items',
          ItemSelector: { 'all.$': '$', 'i.$': '$$.Map.Item.Value' },
          ItemProcessor: { StartAt: 'I', States: { I: { Type: 'Pass', OutputPath: '$.i', End: true } } },
          End: true,
        },
      },
    };
    const rss0 = process.memoryUsage().rss;
    const arn = await run(def, { blob: 'y'.repeat(200 * KB), items: Array.from({ length: 120 }, (_, i) => i) });
    const d = await settle(arn, 60_000);
    expect([d.status, d.error]).toEqual(['FAILED', 'States.DataLimitExceeded']);
    const stored = await storedBytes(arn);
    // Before: +90 MB stored.
    expect(stored.history + stored.checkpoint).toBeLessThan(JOB_HISTORY_BYTES + 512 * KB);
    expect(stored.checkpoint).toBeLessThan(500 * KB);
    for (const n of await pageSizes(arn)) expect(n).toBeLessThan(PAGE_BYTES + 2 * KB);
    if (process.env.SHOW_FIGURES) console.log('map', stored, 'rss +MB', Math.round((process.memoryUsage().rss - rss0) / MB));

    // Small iterations run to the end with one stored copy of the items.
    const small = await run(def, { blob: 'y'.repeat(2 * KB), items: Array.from({ length: 120 }, (_, i) => i) });
    const ok = await settle(small, 60_000);
    expect(ok.status).toBe('SUCCEEDED');
    expect(JSON.parse(ok.output!)).toEqual(Array.from({ length: 120 }, (_, i) => i));
  }, 90_000);

  it('a Parameters that multiplies its input fails with States.DataLimitExceeded before its text is built', async () => {
    const params: Record<string, string> = {};
    for (let i = 0; i < 3000; i++) params[`k${i}.$`] = '$';
    const before = engineStats.serializedChars;
    const arn = await run({ StartAt: 'P', States: { P: { Type: 'Pass', Parameters: params, End: true } } }, { blob: 'z'.repeat(100 * KB) });
    const d = await settle(arn);
    expect([d.status, d.error]).toEqual(['FAILED', 'States.DataLimitExceeded']);
    // 300 MB as text; what was built is the input's event and the checkpoints.
    expect(engineStats.serializedChars - before).toBeLessThan(MB);
    const stored = await storedBytes(arn);
    expect(stored.history + stored.checkpoint).toBeLessThan(600 * KB);
  });
});
