/**
 * JSONata states and workflow variables: the examples of the AWS Step Functions Developer Guide ("Transforming data
 * with JSONata in Step Functions", "Passing data between states with variables", the JSONata functions Step
 * Functions provides) with their documented outputs, as table tests; then the behaviour around them (scopes,
 * Catch, Retry, Map, bounds, durability).
 */
import { checkIds, echo, runToEnd, types, CTX, T0, Clock } from './helpers';
import { TaskFailure, type AslDefinition, type Json, type RunTask } from '../../../../src/services/workflow/engine';
import { advance, initialCheckpoint, type Checkpoint } from '../../../../src/services/workflow/engine';

const jsonata = (states: Record<string, unknown>, startAt = Object.keys(states)[0]): AslDefinition => ({ QueryLanguage: 'JSONata', StartAt: startAt, States: states });

describe('AWS documentation examples (conformance)', () => {
  const cases: Array<[string, AslDefinition, Json, Json]> = [
    [
      // transforming-data: "The following code samples show a conversion from JSONPath to JSONata"
      'Arguments: converted from Parameters (JSONata)',
      jsonata({
        Vars: { Type: 'Pass', Assign: { customerName: 'María' }, Next: 'T' },
        T: { Type: 'Task', Resource: 'echo', Arguments: { static: 'Hello', title: '{% $states.input.title %}', name: '{% $customerName %}', 'not-evaluated': '$customerName' }, End: true },
      }),
      { title: 'Doctor' },
      { static: 'Hello', title: 'Doctor', name: 'María', 'not-evaluated': '$customerName' },
    ],
    [
      'Parameters: the same sample in JSONPath',
      {
        StartAt: 'Vars',
        States: {
          Vars: { Type: 'Pass', Assign: { customerName: 'María' }, Next: 'T' },
          T: { Type: 'Task', Resource: 'echo', Parameters: { static: 'Hello', 'title.$': '$.title', 'name.$': '$customerName', 'not-evaluated': '$customerName' }, End: true },
        },
      },
      { title: 'Doctor' },
      { static: 'Hello', title: 'Doctor', name: 'María', 'not-evaluated': '$customerName' },
    ],
    [
      // JSONata functions provided by Step Functions: $partition
      '$partition([1..9], 3)',
      jsonata({ P: { Type: 'Pass', Output: '{% $partition([1, 2, 3, 4, 5, 6, 7, 8, 9], 3) %}', End: true } }),
      {},
      [
        [1, 2, 3],
        [4, 5, 6],
        [7, 8, 9],
      ],
    ],
    ['$range(0, 10, 2)', jsonata({ P: { Type: 'Pass', Output: '{% $range(0, 10, 2) %}', End: true } }), {}, [0, 2, 4, 6, 8, 10]],
    [
      // the States.Hash example's data, through $hash
      "$hash('input data', 'SHA-1')",
      jsonata({ P: { Type: 'Pass', Output: '{% $hash($states.input.Data, $states.input.Algorithm) %}', End: true } }),
      { Data: 'input data', Algorithm: 'SHA-1' },
      'aaff4a450a104cd177d28d18d74485e8cae074b7',
    ],
    ['$parse of a JSON string', jsonata({ P: { Type: 'Pass', Output: '{% $parse($states.input.json_string) %}', End: true } }), { json_string: '{"foo": "bar"}' }, { foo: 'bar' }],
    [
      // workflow-variables: declaring variables with literal values
      'Assign literal values, read as $name',
      jsonata({
        A: { Type: 'Pass', Assign: { productName: 'product1', count: 42, available: true }, Next: 'B' },
        B: { Type: 'Pass', Output: { name: '{% $productName %}', count: '{% $count %}', available: '{% $available %}' }, End: true },
      }),
      {},
      { name: 'product1', count: 42, available: true },
    ],
    [
      // workflow-variables: all assignments of a state see the values from before the state (a swap works)
      'Assign is evaluated on the values at state entry (swap)',
      jsonata({
        A: { Type: 'Pass', Assign: { x: 1, y: 2 }, Next: 'B' },
        B: { Type: 'Pass', Assign: { x: '{% $y %}', y: '{% $x %}' }, Output: '{% [$x, $y] %}', Next: 'C' },
        C: { Type: 'Pass', Output: '{% [$x, $y] %}', End: true },
      }),
      {},
      [2, 1],
    ],
    [
      'Assign swap in JSONPath',
      {
        StartAt: 'A',
        States: {
          A: { Type: 'Pass', Assign: { x: 1, y: 2 }, Next: 'B' },
          B: { Type: 'Pass', Assign: { 'x.$': '$y', 'y.$': '$x' }, Next: 'C' },
          C: { Type: 'Pass', Parameters: { 'x.$': '$x', 'y.$': '$y' }, End: true },
        },
      },
      {},
      { x: 2, y: 1 },
    ],
    [
      // workflow-variables (JSONPath): Assign with paths on the state's result, variables in Parameters
      'JSONPath Assign with paths and intrinsics',
      {
        StartAt: 'Store',
        States: {
          Store: { Type: 'Pass', Assign: { 'productName.$': '$.product.name', 'label.$': "States.Format('{} costs {}', $.product.name, $.product.price)", literal: 'x' }, Next: 'Use' },
          Use: { Type: 'Pass', Parameters: { 'name.$': '$productName', 'label.$': '$label', 'literal.$': '$literal' }, End: true },
        },
      },
      { product: { name: 'widget', price: 5 } },
      { name: 'widget', label: 'widget costs 5', literal: 'x' },
    ],
    [
      // $states.result and Output of a Task
      'Task Output from $states.result, Assign from it',
      jsonata({
        T: { Type: 'Task', Resource: 'echo', Arguments: { n: '{% $states.input.n * 2 %}' }, Output: { doubled: '{% $states.result.n %}', input: '{% $states.input %}' }, Assign: { last: '{% $states.result.n %}' }, Next: 'R' },
        R: { Type: 'Pass', Output: '{% $states.input.doubled + $last %}', End: true },
      }),
      { n: 21 },
      84,
    ],
    [
      'Choice Condition on a variable',
      jsonata({
        Set: { Type: 'Pass', Assign: { fullName: "{% $states.input.user.lastName & ' ' & $states.input.user.firstName %}" }, Next: 'Check' },
        Check: { Type: 'Choice', Choices: [{ Condition: "{% $contains($fullName, 'Kato') %}", Next: 'VIP' }], Default: 'Normal' },
        VIP: { Type: 'Pass', Output: 'vip', End: true },
        Normal: { Type: 'Pass', Output: 'normal', End: true },
      }),
      { user: { lastName: 'Kato', firstName: 'Aki' } },
      'vip',
    ],
    [
      'Map: Items and ItemSelector with $states.context.Map.Item',
      jsonata({
        M: {
          Type: 'Map',
          Items: '{% $states.input.list %}',
          ItemSelector: { index: '{% $states.context.Map.Item.Index %}', value: '{% $states.context.Map.Item.Value %}' },
          ItemProcessor: { StartAt: 'I', States: { I: { Type: 'Pass', Output: '{% $states.input.index & ":" & $states.input.value %}', End: true } } },
          End: true,
        },
      }),
      { list: ['a', 'b'] },
      ['0:a', '1:b'],
    ],
    [
      'Catch: $states.errorOutput, Output and Assign of the catcher',
      jsonata({
        T: {
          Type: 'Task',
          Resource: 'fail',
          Catch: [{ ErrorEquals: ['States.ALL'], Output: '{% $states.errorOutput %}', Assign: { caught: '{% $states.errorOutput.Error %}' }, Next: 'After' }],
          End: true,
        },
        After: { Type: 'Pass', Output: { error: '{% $states.input.Error %}', caught: '{% $caught %}' }, End: true },
      }),
      {},
      { error: 'Boom', caught: 'Boom' },
    ],
    [
      'Wait: Seconds from an expression, Output',
      jsonata({ W: { Type: 'Wait', Seconds: '{% $states.input.s %}', Output: '{% $states.input.s * 10 %}', End: true } }),
      { s: 3 },
      30,
    ],
    [
      'Parallel: Arguments to every branch, Output of the results',
      jsonata({
        P: {
          Type: 'Parallel',
          Arguments: { v: '{% $states.input.v %}' },
          Branches: [
            { StartAt: 'A', States: { A: { Type: 'Pass', Output: '{% $states.input.v + 1 %}', End: true } } },
            { StartAt: 'B', States: { B: { Type: 'Pass', Output: '{% $states.input.v * 2 %}', End: true } } },
          ],
          Output: '{% $sum($states.result) %}',
          End: true,
        },
      }),
      { v: 5 },
      16,
    ],
    [
      'Fail: Error and Cause from expressions are the job error',
      jsonata({ F: { Type: 'Fail', Error: "{% 'Custom.' & $states.input.kind %}", Cause: '{% $string($states.input.n) %}' } }),
      { kind: 'Bad', n: 7 },
      null,
    ],
  ];

  const tasks: RunTask = async (t) => {
    if (t.resource === 'fail') throw new TaskFailure('Boom', 'it broke');
    return t.input;
  };

  test.each(cases)('%s', async (name, def, input, expected) => {
    const r = await runToEnd(def, input, tasks);
    if (name.startsWith('Fail:')) {
      expect(r.status).toBe('FAILED');
      expect(r.error).toBe('Custom.Bad');
      expect(r.cause).toBe('7');
      return;
    }
    expect(r.error).toBeUndefined();
    expect(r.status).toBe('SUCCEEDED');
    expect(r.output).toEqual(expected);
    checkIds(r.events);
  });
});

describe('JSONata semantics', () => {
  test('$states.context carries the execution and the state', async () => {
    const r = await runToEnd(jsonata({ P: { Type: 'Pass', Output: { name: '{% $states.context.State.Name %}', exec: '{% $states.context.Execution.Name %}', input: '{% $states.context.Execution.Input %}' }, End: true } }), { a: 1 });
    expect(r.output).toEqual({ name: 'P', exec: CTX.executionName, input: { a: 1 } });
  });

  test('$now() follows the engine clock', async () => {
    const r = await runToEnd(jsonata({ P: { Type: 'Pass', Output: '{% $now() %}', End: true } }), {});
    expect(r.output).toBe(new Date(T0).toISOString());
  });

  test('a state can be JSONata in a JSONPath machine', async () => {
    const r = await runToEnd(
      { StartAt: 'A', States: { A: { Type: 'Pass', Parameters: { 'v.$': '$.v' }, Next: 'B' }, B: { Type: 'Pass', QueryLanguage: 'JSONata', Output: '{% $states.input.v + 1 %}', End: true } } },
      { v: 1 },
    );
    expect(r.output).toBe(2);
  });

  test('an expression that returns nothing fails the state with States.QueryEvaluationError and an EvaluationFailed event', async () => {
    const r = await runToEnd(jsonata({ P: { Type: 'Pass', Output: '{% $states.input.missing %}', End: true } }), {});
    expect(r.status).toBe('FAILED');
    expect(r.error).toBe('States.QueryEvaluationError');
    expect(r.cause).toContain("specified for the field 'Output' returned nothing (undefined)");
    const ev = r.events.find((e) => e.type === 'EvaluationFailed') as Record<string, unknown> | undefined;
    expect(ev?.evaluationFailedEventDetails).toEqual(expect.objectContaining({ error: 'States.QueryEvaluationError', location: 'Output', state: 'P' }));
    expect(types(r.events)).toEqual(['PassStateEntered', 'EvaluationFailed', 'ExecutionFailed']);
  });

  test('States.QueryEvaluationError is caught by a Catch on the Task', async () => {
    const r = await runToEnd(
      jsonata({
        T: { Type: 'Task', Resource: 'echo', Arguments: '{% $number("x") + 1 %}', Catch: [{ ErrorEquals: ['States.QueryEvaluationError'], Next: 'C' }], End: true },
        C: { Type: 'Pass', End: true },
      }),
      {},
      echo,
    );
    expect(r.status).toBe('SUCCEEDED');
    expect((r.output as { Error: string }).Error).toBe('States.QueryEvaluationError');
  });

  test('$eval is refused at run time', async () => {
    const r = await runToEnd(jsonata({ P: { Type: 'Pass', Output: "{% $eval('1 + 1') %}", End: true } }), {});
    expect(r.error).toBe('States.QueryEvaluationError');
    expect(r.cause).toContain('$eval is not supported');
  });

  test('a Choice Condition that is not boolean is an evaluation error', async () => {
    const r = await runToEnd(jsonata({ C: { Type: 'Choice', Choices: [{ Condition: '{% 1 %}', Next: 'D' }], Default: 'D' }, D: { Type: 'Succeed' } }), {});
    expect(r.error).toBe('States.QueryEvaluationError');
  });

  test("a matching Choice rule's Assign replaces the state's", async () => {
    const r = await runToEnd(
      jsonata({
        C: { Type: 'Choice', Assign: { picked: 'state' }, Choices: [{ Condition: '{% true %}', Assign: { picked: 'rule' }, Next: 'D' }], Default: 'D' },
        D: { Type: 'Pass', Output: '{% $picked %}', End: true },
      }),
      {},
    );
    expect(r.output).toBe('rule');
  });

  test('a Retry evaluates Arguments again ($states.context.State.RetryCount)', async () => {
    const seen: Json[] = [];
    const r = await runToEnd(
      jsonata({ T: { Type: 'Task', Resource: 'flaky', Arguments: { n: '{% $states.context.State.RetryCount %}' }, Retry: [{ ErrorEquals: ['States.ALL'], MaxAttempts: 2, IntervalSeconds: 1 }], End: true } }),
      {},
      async (t) => {
        seen.push(t.input);
        if (seen.length < 3) throw new TaskFailure('Flaky', 'again');
        return 'ok';
      },
    );
    expect(r.output).toBe('ok');
    expect(seen).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
  });

  test('StateExited events carry assignedVariables', async () => {
    const r = await runToEnd(jsonata({ P: { Type: 'Pass', Assign: { a: '{% 1 + 1 %}', b: { c: 'd' } }, End: true } }), {});
    const exited = r.events.find((e) => e.type === 'PassStateExited') as Record<string, { assignedVariables?: unknown; assignedVariablesDetails?: unknown }>;
    expect(exited.stateExitedEventDetails.assignedVariables).toEqual({ a: '2', b: '{"c":"d"}' });
    expect(exited.stateExitedEventDetails.assignedVariablesDetails).toEqual({ truncated: false });
  });
});

describe('variables: scopes', () => {
  test('a Parallel branch reads outer variables; its own assignments stay in the branch', async () => {
    const r = await runToEnd(
      jsonata({
        Set: { Type: 'Pass', Assign: { outer: 10 }, Next: 'Par' },
        Par: {
          Type: 'Parallel',
          Branches: [
            {
              StartAt: 'A',
              States: { A: { Type: 'Pass', Assign: { inner: '{% $outer + 1 %}' }, Next: 'B' }, B: { Type: 'Pass', Output: '{% $inner + $outer %}', End: true } },
            },
            { StartAt: 'C', States: { C: { Type: 'Pass', Output: '{% $outer %}', End: true } } },
          ],
          Next: 'After',
        },
        After: { Type: 'Pass', Output: { result: '{% $states.input %}', innerVisible: '{% $exists($inner) %}' }, End: true },
      }),
      {},
    );
    expect(r.output).toEqual({ result: [21, 10], innerVisible: false });
  });

  test('Map iterations read outer variables (JSONPath `$name` paths) and each has its own scope', async () => {
    const r = await runToEnd(
      {
        StartAt: 'Set',
        States: {
          Set: { Type: 'Pass', Assign: { factor: 3 }, Next: 'M' },
          M: {
            Type: 'Map',
            ItemProcessor: {
              StartAt: 'I',
              States: {
                I: { Type: 'Pass', Assign: { 'mine.$': '$.v' }, Next: 'J' },
                J: { Type: 'Pass', Parameters: { 'v.$': '$mine', 'f.$': '$factor' }, End: true },
              },
            },
            End: true,
          },
        },
      },
      [{ v: 1 }, { v: 2 }, { v: 3 }],
    );
    expect(r.output).toEqual([
      { v: 1, f: 3 },
      { v: 2, f: 3 },
      { v: 3, f: 3 },
    ]);
  });

  test('a JSONPath reference to an unassigned variable fails with States.Runtime', async () => {
    const r = await runToEnd({ StartAt: 'P', States: { P: { Type: 'Pass', Parameters: { 'v.$': '$nothing' }, End: true } } }, {});
    expect(r.error).toBe('States.Runtime');
  });

  test('a variable over 256 KiB fails the state', async () => {
    const r = await runToEnd(jsonata({ P: { Type: 'Pass', Assign: { big: "{% $join([1..300].($pad('', 1000, 'x'))) %}" }, End: true } }), {});
    expect(r.status).toBe('FAILED');
    expect(r.error).toBe('States.DataLimitExceeded');
    expect(r.cause).toContain("variable 'big'");
  });

  test('variables are in the checkpoint: a job resumed from its stored checkpoint still has them', async () => {
    const def = jsonata({
      A: { Type: 'Pass', Assign: { kept: '{% $states.input.v %}' }, Next: 'T' },
      T: { Type: 'Task', Resource: 'echo', Arguments: '{% $kept %}', Output: '{% $states.result & "/" & $kept %}', End: true },
    });
    const clock = new Clock();
    let cp: Checkpoint = initialCheckpoint(def, { v: 'x' }, CTX, clock.now());
    // a fresh process: the checkpoint is all that survives (through JSON, as in the database)
    for (let i = 0; i < 20; i++) {
      cp = JSON.parse(JSON.stringify(cp)) as Checkpoint;
      const r = await advance(JSON.stringify(def), cp, { now: clock.now, runTask: echo });
      cp = r.checkpoint;
      if (r.status !== 'RUNNING') {
        expect(r.status).toBe('SUCCEEDED');
        expect(JSON.parse(r.output!)).toBe('x/x');
        return;
      }
      if (i === 0) expect(JSON.stringify(cp)).toContain('"kept":"x"');
    }
    throw new Error('did not finish');
  });
});

describe('bounded evaluation', () => {
  test.each([
    ['$range beyond 1000 items', '{% $range(0, 100000000) %}', '$range'],
    ['deep recursion through a function definition', '{% ($f := function($n){ $n <= 0 ? 0 : 1 + $f($n - 1) }; $f(1000000)) %}', 'deep'],
    ['a string doubled 40 times', "{% ($f := function($s, $n){ $n = 0 ? $s : $f($s & $s, $n - 1) }; $f('x', 40)) %}", 'string longer'],
    ['$pad to a huge width', "{% $pad('x', 1000000000) %}", '$pad'],
    ['$string of a huge range', '{% $string([1..10000000]) %}', 'array of more than'],
    ['many strings under the limit each', "{% $count([1..200].$pad('', 1000000)) %}", 'characters of strings in all'],
    ['a loop of many steps', '{% $count([1..99999].($string($) & $string($ + 1))) %}', 'evaluation steps'],
  ])(
    '%s fails with States.QueryEvaluationError',
    async (_name, expr, why) => {
      const r = await runToEnd(jsonata({ P: { Type: 'Pass', Output: expr, End: true } }), {});
      expect(r.status).toBe('FAILED');
      expect(r.error).toBe('States.QueryEvaluationError');
      expect(r.cause).toContain(why);
    },
    // Each runs an expression to one of the engine's limits (200,000 steps, hundreds of MB of strings): about a second
    // alone, and once more than 30 s in CI with both suites on two cores. What is checked is the error, not the time.
    120_000,
  );

  test('a catastrophic regular expression finishes (V8 falls back to its linear engine)', async () => {
    const r = await runToEnd(jsonata({ P: { Type: 'Pass', Output: '{% $contains($states.input.s, /^(a+)+$/) %}', End: true } }), { s: `${'a'.repeat(60)}b` });
    expect(r.status).toBe('SUCCEEDED');
    expect(r.output).toBe(false);
  });

  test('a regular expression with a backreference is refused', async () => {
    const r = await runToEnd(jsonata({ P: { Type: 'Pass', Output: '{% $contains($states.input.s, /(a*)*\\1b/) %}', End: true } }), { s: 'aaa' });
    expect(r.error).toBe('States.QueryEvaluationError');
    expect(r.cause).toContain('backreferences');
  });
});
