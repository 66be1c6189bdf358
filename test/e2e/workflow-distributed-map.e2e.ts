/**
 * Distributed Map with the REAL @aws-sdk/client-sfn: child executions (listed by mapRunArn, one per item or batch,
 * named by the run), ItemSelector and ItemBatcher inputs, the results in item order, ListMapRuns / DescribeMapRun
 * counts, the MapRun* history events, tolerated failures (States.ExceedToleratedFailureThreshold), UpdateMapRun
 * lowering MaxConcurrency of the RUNNING run (children started after it never overlap), a stop aborting the run and
 * its children, children redriven only by their run (REDRIVABLE_BY_MAP_RUN; a direct RedriveExecution answers
 * ExecutionNotRedrivable), ItemReader / ResultWriter refused by validation, and the operations' errors.
 */
import {
  CreateActivityCommand,
  CreateStateMachineCommand,
  DescribeExecutionCommand,
  DescribeMapRunCommand,
  GetActivityTaskCommand,
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  ListMapRunsCommand,
  RedriveExecutionCommand,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
  UpdateMapRunCommand,
  type ExecutionListItem,
} from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

describe('workflow Distributed Map', () => {
  let t: TestApp;
  let sfn: SFNClient;

  beforeAll(async () => {
    t = await startTestApp({ env: { WORKFLOW_ACTIVITY_POLL_SECONDS: '1' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('dm'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  const waitEnd = async (executionArn: string) => {
    for (;;) {
      const d = await sfn.send(new DescribeExecutionCommand({ executionArn }));
      if (d.status !== 'RUNNING') return d;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const history = async (executionArn: string) => (await sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }))).events ?? [];
  const errorOf = (p: Promise<unknown>) => p.then(() => ({ name: 'ok', message: '' }), (e: Error) => ({ name: e.name, message: e.message }));
  const children = async (mapRunArn: string, statusFilter?: 'SUCCEEDED' | 'FAILED' | 'RUNNING' | 'ABORTED') => {
    const out: ExecutionListItem[] = [];
    let nextToken: string | undefined;
    do {
      const page = await sfn.send(new ListExecutionsCommand({ mapRunArn, statusFilter, maxResults: 7, nextToken }));
      out.push(...(page.executions ?? []));
      nextToken = page.nextToken;
    } while (nextToken);
    return out;
  };
  const create = async (name: string, definition: object) =>
    (await sfn.send(new CreateStateMachineCommand({ name, roleArn: ROLE, definition: JSON.stringify(definition) }))).stateMachineArn!;

  it('runs one child execution per item, returns their outputs in item order, and records the run', async () => {
    const stateMachineArn = await create('dmap-basic', {
      StartAt: 'Fan',
      States: {
        Fan: {
          Type: 'Map',
          Label: 'Fan',
          ItemsPath: '$.items',
          ItemSelector: { 'n.$': '$$.Map.Item.Value', 'i.$': '$$.Map.Item.Index', 'tag.$': '$.tag' },
          MaxConcurrency: 3,
          ItemProcessor: {
            ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
            StartAt: 'Square',
            States: { Square: { Type: 'Pass', Parameters: { 'sq.$': 'States.MathAdd($.n, $.n)', 'i.$': '$.i', 'tag.$': '$.tag' }, End: true } },
          },
          ResultPath: '$.out',
          End: true,
        },
      },
    });
    const items = Array.from({ length: 12 }, (_, i) => i * 10);
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify({ items, tag: 'x' }) }));
    const d = await waitEnd(executionArn!);
    expect(d.status).toBe('SUCCEEDED');
    expect(JSON.parse(d.output!).out).toEqual(items.map((n, i) => ({ sq: n + n, i, tag: 'x' })));

    const types = (await history(executionArn!)).map((e) => e.type);
    expect(types).toEqual(['ExecutionStarted', 'MapStateEntered', 'MapStateStarted', 'MapRunStarted', 'MapRunSucceeded', 'MapStateSucceeded', 'MapStateExited', 'ExecutionSucceeded']);
    const events = await history(executionArn!);
    const mapRunArn = events.find((e) => e.type === 'MapRunStarted')!.mapRunStartedEventDetails!.mapRunArn!;
    expect(mapRunArn).toMatch(/^arn:aws:states:us-east-1:\d{12}:mapRun:dmap-basic\/Fan:[0-9a-f-]{36}$/);

    const runs = await sfn.send(new ListMapRunsCommand({ executionArn }));
    expect(runs.mapRuns).toEqual([expect.objectContaining({ executionArn, mapRunArn, stateMachineArn, startDate: expect.any(Date), stopDate: expect.any(Date) })]);
    const run = await sfn.send(new DescribeMapRunCommand({ mapRunArn }));
    expect(run).toMatchObject({ mapRunArn, executionArn, status: 'SUCCEEDED', maxConcurrency: 3, toleratedFailureCount: 0, toleratedFailurePercentage: 0 });
    expect(run.itemCounts).toMatchObject({ pending: 0, running: 0, succeeded: 12, failed: 0, total: 12 });
    expect(run.executionCounts).toMatchObject({ pending: 0, running: 0, succeeded: 12, failed: 0, total: 12 });

    // children: listed by their run (not with the state machine's executions), one per item, each ran once
    const kids = await children(mapRunArn);
    expect(kids).toHaveLength(12);
    expect(new Set(kids.map((k) => k.name)).size).toBe(12);
    for (const k of kids) {
      expect(k).toMatchObject({ status: 'SUCCEEDED', mapRunArn, itemCount: 1, stateMachineArn: `${stateMachineArn}/Fan` });
      expect(k.executionArn).toBe(`${stateMachineArn.replace(':stateMachine:', ':execution:')}/Fan:${k.name}`);
    }
    const first = await sfn.send(new DescribeExecutionCommand({ executionArn: kids[0].executionArn }));
    expect(JSON.parse(first.input!)).toEqual({ n: 0, i: 0, tag: 'x' });
    expect((await history(kids[5].executionArn!)).map((e) => e.type)).toEqual(['ExecutionStarted', 'PassStateEntered', 'PassStateExited', 'ExecutionSucceeded']);
    const own = await sfn.send(new ListExecutionsCommand({ stateMachineArn }));
    expect(own.executions!.map((e) => e.executionArn)).toEqual([executionArn]);
  });

  it('batches items (MaxItemsPerBatch, BatchInput) and counts items and executions apart; JSONata Items and ItemSelector', async () => {
    const stateMachineArn = await create('dmap-batch', {
      QueryLanguage: 'JSONata',
      StartAt: 'Fan',
      States: {
        Fan: {
          Type: 'Map',
          Items: '{% $states.input.items %}',
          ItemSelector: { v: '{% $states.context.Map.Item.Value * 2 %}' },
          ItemBatcher: { MaxItemsPerBatch: 4, BatchInput: { batch: '{% $states.input.name %}' } },
          ItemProcessor: {
            ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'EXPRESS' },
            StartAt: 'Sum',
            States: { Sum: { Type: 'Pass', Output: { sum: '{% $sum($states.input.Items.v) %}', batch: '{% $states.input.BatchInput.batch %}' }, End: true } },
          },
          End: true,
        },
      },
    });
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify({ items: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], name: 'b' }) }));
    const d = await waitEnd(executionArn!);
    expect(d.status).toBe('SUCCEEDED');
    expect(JSON.parse(d.output!)).toEqual([
      { sum: 20, batch: 'b' },
      { sum: 52, batch: 'b' },
      { sum: 38, batch: 'b' },
    ]);
    const mapRunArn = (await sfn.send(new ListMapRunsCommand({ executionArn }))).mapRuns![0].mapRunArn!;
    const run = await sfn.send(new DescribeMapRunCommand({ mapRunArn }));
    expect(run.itemCounts).toMatchObject({ succeeded: 10, total: 10 });
    expect(run.executionCounts).toMatchObject({ succeeded: 3, total: 3 });
    const kids = await children(mapRunArn);
    expect(kids.map((k) => k.itemCount)).toEqual([4, 4, 2]);
    const input = await sfn.send(new DescribeExecutionCommand({ executionArn: kids[2].executionArn }));
    expect(JSON.parse(input.input!)).toEqual({ Items: [{ v: 18 }, { v: 20 }], BatchInput: { batch: 'b' } });
  });

  const failing = (tolerance: object) => ({
    StartAt: 'Fan',
    States: {
      Fan: {
        Type: 'Map',
        ...tolerance,
        ItemsPath: '$.items',
        ItemProcessor: {
          ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
          StartAt: 'Check',
          States: {
            Check: { Type: 'Choice', Choices: [{ Variable: '$.bad', BooleanEquals: true, Next: 'Bad' }], Default: 'Good' },
            Bad: { Type: 'Fail', Error: 'Item.Bad', Cause: 'a bad item' },
            Good: { Type: 'Pass', OutputPath: '$.n', End: true },
          },
        },
        Catch: [{ ErrorEquals: ['States.ExceedToleratedFailureThreshold'], ResultPath: '$.caught', Next: 'Caught' }],
        End: true,
      },
      Caught: { Type: 'Pass', End: true },
    },
  });
  const tenItems = JSON.stringify({ items: Array.from({ length: 10 }, (_, n) => ({ n, bad: n % 4 === 1 })) });

  it('tolerates failures up to ToleratedFailurePercentage; past ToleratedFailureCount the Map fails with States.ExceedToleratedFailureThreshold', async () => {
    const tolerant = await create('dmap-tolerant', failing({ ToleratedFailurePercentage: 30 }));
    const ok = await sfn.send(new StartExecutionCommand({ stateMachineArn: tolerant, input: tenItems }));
    const d = await waitEnd(ok.executionArn!);
    expect(d.status).toBe('SUCCEEDED');
    const out = JSON.parse(d.output!) as unknown[];
    expect(Array.isArray(out)).toBe(true);
    expect(out).toHaveLength(10);
    expect(out[1]).toEqual({ Error: 'Item.Bad', Cause: 'a bad item' });
    expect(out[2]).toBe(2);
    const okRun = (await sfn.send(new ListMapRunsCommand({ executionArn: ok.executionArn }))).mapRuns![0].mapRunArn!;
    expect((await sfn.send(new DescribeMapRunCommand({ mapRunArn: okRun }))).itemCounts).toMatchObject({ succeeded: 7, failed: 3, total: 10 });
    expect((await children(okRun, 'FAILED')).length).toBe(3);

    const strict = await create('dmap-strict', failing({ ToleratedFailureCount: 1, MaxConcurrency: 1 }));
    const bad = await sfn.send(new StartExecutionCommand({ stateMachineArn: strict, input: tenItems }));
    const f = await waitEnd(bad.executionArn!);
    expect(f.status).toBe('SUCCEEDED'); // caught
    expect(JSON.parse(f.output!).caught).toEqual({ Error: 'States.ExceedToleratedFailureThreshold', Cause: expect.stringContaining('tolerated failure threshold') });
    const events = await history(bad.executionArn!);
    const failed = events.find((e) => e.type === 'MapRunFailed');
    expect(failed?.mapRunFailedEventDetails).toEqual({ error: 'States.ExceedToleratedFailureThreshold', cause: expect.any(String) });
    expect(events.map((e) => e.type)).toContain('MapStateFailed');
    const runArn = (await sfn.send(new ListMapRunsCommand({ executionArn: bad.executionArn }))).mapRuns![0].mapRunArn!;
    const run = await sfn.send(new DescribeMapRunCommand({ mapRunArn: runArn }));
    expect(run.status).toBe('FAILED');
    // The failed children of a run whose failures were tolerated, or whose failure the parent caught, are never redriven.
    const tolerated = (await children(okRun, 'FAILED'))[0];
    expect(await sfn.send(new DescribeExecutionCommand({ executionArn: tolerated.executionArn }))).toMatchObject({
      redriveStatus: 'NOT_REDRIVABLE',
      redriveStatusReason: 'Map Run is SUCCEEDED and cannot be redriven',
    });
    const caught = (await children(runArn, 'FAILED'))[0];
    expect(await sfn.send(new DescribeExecutionCommand({ executionArn: caught.executionArn }))).toMatchObject({
      redriveStatus: 'NOT_REDRIVABLE',
      redriveStatusReason: 'Parent execution is SUCCEEDED and cannot be redriven',
    });
    expect((await errorOf(sfn.send(new RedriveExecutionCommand({ executionArn: caught.executionArn })))).name).toBe('ExecutionNotRedrivable');
    // one at a time: the second failure (item 5) ended it, the items after it never started
    expect(run.itemCounts).toMatchObject({ failed: 2, total: 10 });
    expect(run.itemCounts!.pending).toBeGreaterThan(0);
    // an ended run cannot be updated
    const e = await errorOf(sfn.send(new UpdateMapRunCommand({ mapRunArn: runArn, maxConcurrency: 5 })));
    expect(e.name).toBe('ValidationException');
  });

  it('UpdateMapRun lowers the running run’s MaxConcurrency: the children started after it run one at a time', async () => {
    const { activityArn } = await sfn.send(new CreateActivityCommand({ name: 'dmap-work' }));
    const stateMachineArn = await create('dmap-update', {
      StartAt: 'Fan',
      States: {
        Fan: {
          Type: 'Map',
          MaxConcurrency: 4,
          ItemProcessor: {
            ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
            StartAt: 'Work',
            States: { Work: { Type: 'Task', Resource: activityArn, End: true } },
          },
          End: true,
        },
      },
    });
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify([0, 1, 2, 3, 4, 5, 6, 7]) }));
    let mapRunArn: string | undefined;
    for (;;) {
      mapRunArn = (await sfn.send(new ListMapRunsCommand({ executionArn }))).mapRuns?.[0]?.mapRunArn;
      if (mapRunArn && (await sfn.send(new DescribeMapRunCommand({ mapRunArn }))).executionCounts!.running === 4) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await sfn.send(new UpdateMapRunCommand({ mapRunArn, maxConcurrency: 1, toleratedFailureCount: 3 }));
    expect(await sfn.send(new DescribeMapRunCommand({ mapRunArn }))).toMatchObject({ maxConcurrency: 1, toleratedFailureCount: 3, status: 'RUNNING' });
    for (let done = 0; done < 8; done++) {
      const task = await sfn.send(new GetActivityTaskCommand({ activityArn }));
      if (!task.taskToken) {
        done--;
        continue;
      }
      await sfn.send(new SendTaskSuccessCommand({ taskToken: task.taskToken, output: task.input! }));
    }
    const d = await waitEnd(executionArn!);
    expect(d.status).toBe('SUCCEEDED');
    expect(JSON.parse(d.output!)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const kids = await children(mapRunArn);
    // children 4..7 started after the update: each after the one before it had ended
    for (let i = 5; i < 8; i++) expect(kids[i].startDate!.getTime()).toBeGreaterThanOrEqual(kids[i - 1].stopDate!.getTime());
  });

  it('RedriveExecution of a job whose Distributed Map failed redrives the same Map Run: only children that did not succeed run again', async () => {
    const stateMachineArn = await create('dmap-redrive', {
      StartAt: 'Fan',
      States: {
        Fan: {
          Type: 'Map',
          Label: 'Fan',
          ItemsPath: '$.items',
          MaxConcurrency: 1,
          ItemProcessor: {
            ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
            StartAt: 'Check',
            States: {
              Check: { Type: 'Choice', Choices: [{ Variable: '$', NumericEquals: 2, Next: 'Bad' }], Default: 'Good' },
              Bad: { Type: 'Fail', Error: 'Two', Cause: 'no twos' },
              Good: { Type: 'Pass', End: true },
            },
          },
          End: true,
        },
      },
    });
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify({ items: [0, 1, 2, 3, 4] }) }));
    expect((await waitEnd(executionArn!)).status).toBe('FAILED');
    const mapRunArn = (await history(executionArn!)).find((e) => e.type === 'MapRunStarted')!.mapRunStartedEventDetails!.mapRunArn!;
    const before = await sfn.send(new DescribeMapRunCommand({ mapRunArn }));
    expect(before).toMatchObject({ status: 'FAILED', redriveCount: 0 });
    const kidsBefore = await children(mapRunArn);
    const succeededBefore = kidsBefore.filter((k) => k.status === 'SUCCEEDED').map((k) => k.executionArn);
    expect(succeededBefore).toHaveLength(2);
    const child2 = kidsBefore.find((k) => k.status === 'FAILED')!;
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn: child2.executionArn }));
    expect(described.mapRunArn).toBe(mapRunArn);
    expect((await sfn.send(new DescribeExecutionCommand({ executionArn }))).mapRunArn).toBeUndefined();
    // A failed child is redriven by its Map Run (through its parent), never on its own; a succeeded one not at all.
    expect(described).toMatchObject({ redriveStatus: 'REDRIVABLE_BY_MAP_RUN', redriveCount: 0 });
    expect(described.redriveStatusReason).toBeUndefined();
    expect(await sfn.send(new DescribeExecutionCommand({ executionArn: succeededBefore[0] }))).toMatchObject({
      redriveStatus: 'NOT_REDRIVABLE',
      redriveStatusReason: 'Execution is SUCCEEDED and cannot be redriven',
    });
    expect((await sfn.send(new DescribeExecutionCommand({ executionArn }))).redriveStatus).toBe('REDRIVABLE');
    const childEventsBefore = (await history(child2.executionArn!)).length;
    const direct = await errorOf(sfn.send(new RedriveExecutionCommand({ executionArn: child2.executionArn })));
    expect(direct.name).toBe('ExecutionNotRedrivable');
    expect(direct.message).toContain(mapRunArn);
    expect(direct.message).toContain(`redrive its parent execution ${executionArn}`);
    expect(await sfn.send(new DescribeExecutionCommand({ executionArn: child2.executionArn }))).toMatchObject({ status: 'FAILED', redriveCount: 0 });
    expect(await history(child2.executionArn!)).toHaveLength(childEventsBefore);
    expect(await sfn.send(new DescribeMapRunCommand({ mapRunArn }))).toMatchObject({ status: 'FAILED', redriveCount: 0 });

    await sfn.send(new RedriveExecutionCommand({ executionArn }));
    // Item 2 fails again: the job fails again, after running only what had not succeeded.
    expect((await waitEnd(executionArn!)).status).toBe('FAILED');
    const events = await history(executionArn!);
    const redriven = events.find((e) => e.type === 'MapRunRedriven');
    expect(redriven?.mapRunRedrivenEventDetails).toEqual({ mapRunArn, redriveCount: 1 });
    expect(events.filter((e) => e.type === 'MapRunStarted')).toHaveLength(1);
    expect((await sfn.send(new ListMapRunsCommand({ executionArn }))).mapRuns).toHaveLength(1);
    const after = await sfn.send(new DescribeMapRunCommand({ mapRunArn }));
    expect(after).toMatchObject({ status: 'FAILED', redriveCount: 1, redriveDate: expect.any(Date) });
    const kidsAfter = await children(mapRunArn);
    // The same children (no new ones for the items already started); the succeeded ones never ran again.
    expect(new Set(kidsAfter.map((k) => k.executionArn)).size).toBe(kidsAfter.length);
    expect(kidsAfter.length).toBeLessThanOrEqual(5);
    for (const arn of succeededBefore) {
      expect((await history(arn!)).map((e) => e.type)).toEqual(['ExecutionStarted', 'ChoiceStateEntered', 'ChoiceStateExited', 'PassStateEntered', 'PassStateExited', 'ExecutionSucceeded']);
    }
    const again = (await history(child2.executionArn!)).map((e) => e.type);
    expect(again.filter((t) => t === 'ExecutionRedriven')).toHaveLength(1);
    expect(again.filter((t) => t === 'ExecutionFailed')).toHaveLength(2);
    expect((await sfn.send(new DescribeExecutionCommand({ executionArn: child2.executionArn }))).redriveCount).toBe(1);
  });

  it('a stopped job aborts its run and the children still running', async () => {
    const { activityArn } = await sfn.send(new CreateActivityCommand({ name: 'dmap-stop' }));
    const stateMachineArn = await create('dmap-stop', {
      StartAt: 'Fan',
      States: {
        Fan: {
          Type: 'Map',
          MaxConcurrency: 2,
          ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' }, StartAt: 'Work', States: { Work: { Type: 'Task', Resource: activityArn, End: true } } },
          End: true,
        },
      },
    });
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: '[1,2,3,4,5]' }));
    let mapRunArn: string | undefined;
    for (;;) {
      mapRunArn = (await sfn.send(new ListMapRunsCommand({ executionArn }))).mapRuns?.[0]?.mapRunArn;
      if (mapRunArn && (await children(mapRunArn, 'RUNNING')).length === 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await sfn.send(new StopExecutionCommand({ executionArn }));
    const run = await sfn.send(new DescribeMapRunCommand({ mapRunArn }));
    expect(run.status).toBe('ABORTED');
    expect(run.executionCounts).toMatchObject({ running: 0, aborted: 2, pending: 3, total: 5 });
    const kids = await children(mapRunArn);
    expect(kids.map((k) => k.status)).toEqual(['ABORTED', 'ABORTED']);
    expect((await history(kids[0].executionArn!)).map((e) => e.type).pop()).toBe('ExecutionAborted');
  });

  it('refuses ItemReader and ResultWriter by validation, naming them; the operations answer Step Functions’ errors', async () => {
    const map = (extra: object) => ({
      StartAt: 'Fan',
      States: { Fan: { Type: 'Map', ...extra, ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' }, StartAt: 'P', States: { P: { Type: 'Pass', End: true } } }, End: true } },
    });
    const reader = await errorOf(create('dmap-reader', map({ ItemReader: { Resource: 'arn:aws:states:::s3:getObject', ReaderConfig: { InputType: 'JSON' }, Parameters: { Bucket: 'b', Key: 'k' } } })));
    expect(reader.name).toBe('InvalidDefinition');
    expect(reader.message).toContain('ItemReader');
    const writer = await errorOf(create('dmap-writer', map({ ResultWriter: { Resource: 'arn:aws:states:::s3:putObject', Parameters: { Bucket: 'b', Prefix: 'p' } } })));
    expect(writer.name).toBe('InvalidDefinition');
    expect(writer.message).toContain('ResultWriter');

    const arn = 'arn:aws:states:us-east-1:123456789012:mapRun:nope/Fan:00000000-0000-0000-0000-000000000000';
    expect((await errorOf(sfn.send(new DescribeMapRunCommand({ mapRunArn: arn })))).name).toBe('ResourceNotFound');
    expect((await errorOf(sfn.send(new UpdateMapRunCommand({ mapRunArn: arn, maxConcurrency: 1 })))).name).toBe('ResourceNotFound');
    expect((await errorOf(sfn.send(new DescribeMapRunCommand({ mapRunArn: 'not-an-arn' })))).name).toBe('InvalidArn');
    expect((await errorOf(sfn.send(new ListMapRunsCommand({ executionArn: 'arn:aws:states:us-east-1:123456789012:execution:nope:x' })))).name).toBe('ExecutionDoesNotExist');
    expect((await errorOf(sfn.send(new ListExecutionsCommand({ mapRunArn: arn })))).name).toBe('ResourceNotFound');
    expect((await errorOf(sfn.send(new ListExecutionsCommand({})))).name).toBe('ValidationException');
    expect((await errorOf(sfn.send(new UpdateMapRunCommand({ mapRunArn: arn, toleratedFailurePercentage: 101 })))).name).toBe('ValidationException');
  });
});
