/**
 * Property: the same flow written in JSONPath and in JSONata gives the same output on random inputs (fast-check).
 * The flow covers Pass (Parameters / Output), variables (Assign, read later and inside a Map), Choice, a Task
 * (Parameters + ResultSelector + ResultPath / Arguments + Output), a Map with ItemSelector, and a Catch.
 */
import fc from 'fast-check';
import { runToEnd } from './helpers';
import { TaskFailure, type AslDefinition, type Json, type RunTask } from '../../../../src/services/workflow/engine';

const JSONPATH: AslDefinition = {
  StartAt: 'Shape',
  States: {
    Shape: { Type: 'Pass', Parameters: { 'n.$': '$.n', 'name.$': '$.name', 'list.$': '$.list', 'flag.$': '$.flag' }, Assign: { 'kept.$': '$.n', 'who.$': '$.name' }, Next: 'Branch' },
    Branch: {
      Type: 'Choice',
      Choices: [{ Variable: '$.flag', BooleanEquals: true, Next: 'Work', Assign: { route: 'work' } }],
      Default: 'Risky',
      Assign: { route: 'risky' },
    },
    Work: {
      Type: 'Task',
      Resource: 'echo',
      Parameters: { 'value.$': '$.n', 'who.$': '$who', 'count.$': 'States.ArrayLength($.list)' },
      ResultSelector: { 'v.$': '$.value', 'c.$': '$.count' },
      ResultPath: '$.task',
      Next: 'Each',
    },
    Risky: {
      Type: 'Task',
      Resource: 'fail',
      Parameters: { 'n.$': '$.n' },
      Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Assign: { 'failure.$': '$.Error' }, Next: 'Each' }],
      Next: 'Each',
    },
    Each: {
      Type: 'Map',
      ItemsPath: '$.list',
      ItemSelector: { 'item.$': '$$.Map.Item.Value', 'index.$': '$$.Map.Item.Index', 'base.$': '$kept' },
      ItemProcessor: { StartAt: 'One', States: { One: { Type: 'Pass', Parameters: { 'i.$': '$.index', 'v.$': '$.item', 'b.$': '$.base', 'r.$': '$route' }, End: true } } },
      ResultPath: '$.mapped',
      Next: 'Done',
    },
    Done: { Type: 'Pass', Parameters: { 'mapped.$': '$.mapped', 'who.$': '$who', 'route.$': '$route', 'kept.$': '$kept' }, End: true },
  },
};

const JSONATA: AslDefinition = {
  QueryLanguage: 'JSONata',
  StartAt: 'Shape',
  States: {
    Shape: {
      Type: 'Pass',
      Output: { n: '{% $states.input.n %}', name: '{% $states.input.name %}', list: '{% $states.input.list %}', flag: '{% $states.input.flag %}' },
      Assign: { kept: '{% $states.input.n %}', who: '{% $states.input.name %}' },
      Next: 'Branch',
    },
    Branch: { Type: 'Choice', Choices: [{ Condition: '{% $states.input.flag = true %}', Next: 'Work', Assign: { route: 'work' } }], Default: 'Risky', Assign: { route: 'risky' } },
    Work: {
      Type: 'Task',
      Resource: 'echo',
      Arguments: { value: '{% $states.input.n %}', who: '{% $who %}', count: '{% $count($states.input.list) %}' },
      Output: '{% $merge([$states.input, { "task": { "v": $states.result.value, "c": $states.result.count } }]) %}',
      Next: 'Each',
    },
    Risky: {
      Type: 'Task',
      Resource: 'fail',
      Arguments: { n: '{% $states.input.n %}' },
      Catch: [{ ErrorEquals: ['States.ALL'], Output: '{% $merge([$states.input, { "error": $states.errorOutput }]) %}', Assign: { failure: '{% $states.errorOutput.Error %}' }, Next: 'Each' }],
      Next: 'Each',
    },
    Each: {
      Type: 'Map',
      Items: '{% $states.input.list %}',
      ItemSelector: { item: '{% $states.context.Map.Item.Value %}', index: '{% $states.context.Map.Item.Index %}', base: '{% $kept %}' },
      ItemProcessor: { StartAt: 'One', States: { One: { Type: 'Pass', Output: { i: '{% $states.input.index %}', v: '{% $states.input.item %}', b: '{% $states.input.base %}', r: '{% $route %}' }, End: true } } },
      Output: '{% $merge([$states.input, { "mapped": $states.result }]) %}',
      Next: 'Done',
    },
    Done: { Type: 'Pass', Output: { mapped: '{% $states.input.mapped %}', who: '{% $who %}', route: '{% $route %}', kept: '{% $kept %}' }, End: true },
  },
};

const tasks: RunTask = async (t) => {
  if (t.resource === 'fail') throw new TaskFailure('Custom.Failure', 'it failed');
  return t.input;
};

// JSON values both languages carry unchanged (JSONata has no -0 and turns integral floats into the same numbers)
const value: fc.Arbitrary<Json> = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.string({ maxLength: 8 }), fc.boolean(), fc.constant(null));

describe('JSONPath and JSONata definitions of the same flow', () => {
  test('give the same output on random inputs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ n: fc.integer({ min: -1000, max: 1000 }), name: fc.string({ maxLength: 12 }), list: fc.array(value, { minLength: 1, maxLength: 6 }), flag: fc.boolean() }),
        async (input) => {
          const a = await runToEnd(JSONPATH, input, tasks);
          const b = await runToEnd(JSONATA, input, tasks);
          expect(a.status).toBe('SUCCEEDED');
          expect(b.status).toBe(a.status);
          expect(b.output).toEqual(a.output);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('member paths read directly', () => {
  test('give what jsonata gives ($states.input.a.b, $var.a) on random data', async () => {
    const { compileExpression, evalExpression } = jest.requireActual('../../../../src/services/workflow/engine/jsonata') as typeof import('../../../../src/services/workflow/engine/jsonata');
    const json: fc.Arbitrary<Json> = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>;
    const key = fc.constantFrom('a', 'b', 'c');
    await fc.assert(
      fc.asyncProperty(fc.dictionary(key, fc.oneof(json, fc.dictionary(key, json))), fc.array(key, { minLength: 1, maxLength: 3 }), fc.boolean(), async (data, keys, onVar) => {
        const src = onVar ? `{% $v.${keys.join('.')} %}` : `{% $states.input.${keys.join('.')} %}`;
        const fast = compileExpression(src, 'Output');
        const slow = { ...fast, fast: undefined };
        const env = { states: { input: data as Json }, vars: { v: data as Json }, now: 0 };
        const outcome = async (e: typeof fast) => evalExpression(e, env).then((v) => ({ v }), (err: { cause?: string }) => ({ err: err.cause }));
        expect(fast.fast).toBeDefined();
        expect(await outcome(fast)).toEqual(await outcome(slow));
      }),
      { numRuns: 300 },
    );
  });
});
