/**
 * Resource bounds of the workflow service with hostile data (issue 20.5), driven by the real @aws-sdk/client-sfn
 * against the embedded runner: history pages bounded in bytes (the SDK's paginator walks them as usual).
 */
import { CreateStateMachineCommand, DescribeExecutionCommand, GetExecutionHistoryCommand, paginateGetExecutionHistory, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { signedCall } from '../helpers/sigv4';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const PAGE_BYTES = 300 * 1024;

describe('workflow resource bounds', () => {
  let t: TestApp;
  let sfn: SFNClient;
  let key: { accessKeyId: string; secretAccessKey: string };

  const define = async (definition: object) =>
    (await sfn.send(new CreateStateMachineCommand({ name: uniq('def'), roleArn: ROLE, definition: JSON.stringify(definition) }))).stateMachineArn!;
  const run = async (definition: object, input: unknown = {}) => {
    const arn = await define(definition);
    return (await sfn.send(new StartExecutionCommand({ stateMachineArn: arn, input: JSON.stringify(input) }))).executionArn!;
  };
  const settle = async (executionArn: string, timeoutMs = 30_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const d = await sfn.send(new DescribeExecutionCommand({ executionArn }));
      if (d.status !== 'RUNNING') return d;
      if (Date.now() > until) throw new Error(`job still RUNNING after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { WORKFLOW_HISTORY_PAGE_BYTES: String(PAGE_BYTES) } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('bounds'));
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
    // maxResults still bounds a page in events.
    expect((await sfn.send(new GetExecutionHistoryCommand({ executionArn: arn, maxResults: 1 }))).events).toHaveLength(1);
  });
});
