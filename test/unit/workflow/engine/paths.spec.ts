import { runToEnd, single, echo } from './helpers';
import type { Json } from '../../../../src/services/workflow/engine';

const pass = (state: Record<string, unknown>, input: Json) => runToEnd(single({ Type: 'Pass', ...state }), input);

describe('InputPath', () => {
  test('selects part of the input; null gives {}; a miss is States.Runtime', async () => {
    expect((await pass({ InputPath: '$.a' }, { a: { b: 1 }, c: 2 })).output).toEqual({ b: 1 });
    expect((await pass({ InputPath: '$.list[1]' }, { list: [1, { x: 2 }] })).output).toEqual({ x: 2 });
    expect((await pass({ InputPath: null }, { a: 1 })).output).toEqual({});
    const r = await pass({ InputPath: '$.missing' }, { a: 1 });
    expect(r.status).toBe('FAILED');
    expect(r.error).toBe('States.Runtime');
    expect(r.cause).toContain('$.missing');
  });
  test('indefinite paths give the array of matches', async () => {
    expect((await pass({ InputPath: '$.items[*].id' }, { items: [{ id: 1 }, { id: 2 }] })).output).toEqual([1, 2]);
    expect((await pass({ InputPath: '$..id' }, { a: { id: 1 }, b: [{ id: 2 }] })).output).toEqual([1, 2]);
    expect((await pass({ InputPath: "$.items[?(@.n > 1)]" }, { items: [{ n: 1 }, { n: 2 }] })).output).toEqual([{ n: 2 }]);
  });
});

describe('Parameters', () => {
  test('static values, `.$` paths on the input, `$$` on the context, nested objects', async () => {
    const r = await pass(
      {
        Parameters: {
          fixed: 'x',
          list: [1, { 'a.$': 'not evaluated inside arrays' }],
          'picked.$': '$.a.b',
          'whole.$': '$',
          nested: { 'name.$': '$$.Execution.Name', 'state.$': '$$.State.Name', 'input.$': '$$.Execution.Input.a.b' },
        },
      },
      { a: { b: 7 } },
    );
    expect(r.output).toEqual({
      fixed: 'x',
      list: [1, { 'a.$': 'not evaluated inside arrays' }],
      picked: 7,
      whole: { a: { b: 7 } },
      nested: { name: 'job-1', state: 'S', input: 7 },
    });
  });
  test('a `.$` path that matches nothing is States.Runtime', async () => {
    const r = await pass({ Parameters: { 'x.$': '$.nope' } }, {});
    expect(r.error).toBe('States.Runtime');
    expect(r.cause).toContain("'x.$'");
  });
  test('a key named __proto__ stays data', async () => {
    const r = await pass({ Parameters: { '__proto__.$': '$.a' } }, { a: { polluted: true } });
    expect(Object.keys(r.output as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('ResultPath', () => {
  test('replaces ($), merges at a path creating objects, discards (null)', async () => {
    expect((await pass({ Result: 5 }, { a: 1 })).output).toBe(5);
    expect((await pass({ Result: 5, ResultPath: '$.r' }, { a: 1 })).output).toEqual({ a: 1, r: 5 });
    expect((await pass({ Result: 5, ResultPath: '$.x.y.z' }, { a: 1, x: { k: 0 } })).output).toEqual({ a: 1, x: { k: 0, y: { z: 5 } } });
    expect((await pass({ Result: 5, ResultPath: "$['a b']" }, {})).output).toEqual({ 'a b': 5 });
    expect((await pass({ Result: 5, ResultPath: '$.l[1]' }, { l: [0, 0] })).output).toEqual({ l: [0, 5] });
    expect((await pass({ Result: 5, ResultPath: null }, { a: 1 })).output).toEqual({ a: 1 });
  });
  test('the input is not modified (the next state sees its own copy)', async () => {
    const input = { a: { b: 1 } };
    const r = await runToEnd(
      {
        StartAt: 'A',
        States: {
          A: { Type: 'Pass', Result: 2, ResultPath: '$.a.c', Next: 'B' },
          B: { Type: 'Pass', Parameters: { 'orig.$': '$$.Execution.Input', 'now.$': '$' }, End: true },
        },
      },
      input,
      undefined,
      { roundTrip: false },
    );
    expect(r.output).toEqual({ orig: { a: { b: 1 } }, now: { a: { b: 1, c: 2 } } });
    expect(input).toEqual({ a: { b: 1 } });
  });
  test('a path through a non-object, or a non-reference path, is States.Runtime', async () => {
    expect((await pass({ Result: 5, ResultPath: '$.a.b' }, { a: 'text' })).error).toBe('States.Runtime');
    expect((await pass({ Result: 5, ResultPath: '$.a[*]' }, { a: [] })).error).toBe('States.Runtime');
  });
});

describe('ResultSelector and OutputPath on a Task', () => {
  test('ResultSelector shapes the result, ResultPath places it, OutputPath picks the output', async () => {
    const r = await runToEnd(
      single({
        Type: 'Task',
        Resource: 'echo',
        Parameters: { payload: { n: 1, list: [1, 2, 3] }, 'arn.$': '$$.Execution.Id' },
        ResultSelector: { 'n.$': '$.payload.n', 'count.$': 'States.ArrayLength($.payload.list)', 'arn.$': '$.arn' },
        ResultPath: '$.res',
        OutputPath: '$.res',
      }),
      { keep: true },
      echo,
    );
    expect(r.output).toEqual({ n: 1, count: 3, arn: 'arn:aws:states:eu-west-1:000000000000:execution:sm:job-1' });
  });
  test('OutputPath null gives {}; a missing OutputPath is States.Runtime', async () => {
    expect((await pass({ OutputPath: null }, { a: 1 })).output).toEqual({});
    expect((await pass({ OutputPath: '$.zz' }, { a: 1 })).error).toBe('States.Runtime');
  });
});

describe('Payload size', () => {
  test('a state output over 256 KiB is States.DataLimitExceeded, and States.ALL does not catch it', async () => {
    const big = 'x'.repeat(262_145);
    const r = await runToEnd(
      {
        StartAt: 'T',
        States: {
          T: { Type: 'Task', Resource: 'echo', Catch: [{ ErrorEquals: ['States.ALL'], Next: 'C' }], End: true },
          C: { Type: 'Pass', End: true },
        },
      },
      { s: 'small' },
      async () => big,
    );
    expect(r.status).toBe('FAILED');
    expect(r.error).toBe('States.DataLimitExceeded');
    const ok = await pass({ Parameters: { 's.$': '$.s' } }, { s: 'y'.repeat(200_000) });
    expect(ok.status).toBe('SUCCEEDED');
    const tooBig = await pass({ Parameters: { 'a.$': '$.s', 'b.$': '$.s' } }, { s: 'é'.repeat(70_000) });
    expect(tooBig.error).toBe('States.DataLimitExceeded');
  });
});
