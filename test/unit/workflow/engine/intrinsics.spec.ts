import { createHash } from 'node:crypto';
import type { Json } from '../../../../src/services/workflow/engine';
import { runToEnd, single } from './helpers';

/** Evaluate an intrinsic in a Pass state's Parameters, as a definition would. */
async function call(expr: string, input: Json = {}): Promise<Json> {
  const r = await runToEnd(single({ Type: 'Pass', Parameters: { 'v.$': expr } }), input);
  if (r.status !== 'SUCCEEDED') throw new Error(`${r.error}: ${r.cause}`);
  return (r.output as { v: Json }).v;
}
async function failure(expr: string, input: Json = {}): Promise<string> {
  const r = await runToEnd(single({ Type: 'Pass', Parameters: { 'v.$': expr } }), input);
  expect(r.status).toBe('FAILED');
  return r.error!;
}

describe('intrinsic parser', () => {
  test('string literals with escapes', async () => {
    expect(await call("States.Format('it\\'s {} \\{literal\\} \\\\ end', 'x')")).toBe("it's x {literal} \\ end");
    expect(await call("States.Array('a,b', 'c)d')")).toEqual(['a,b', 'c)d']);
  });
  test('numbers, booleans, null, paths, context paths and nesting', async () => {
    expect(await call('States.Array(1, -2.5, 1e3, true, false, null)')).toEqual([1, -2.5, 1000, true, false, null]);
    expect(await call('States.Array($.a, $.b[1], $)', { a: 'x', b: [0, 9] })).toEqual(['x', 9, { a: 'x', b: [0, 9] }]);
    expect(await call('States.Array($$.Execution.Name, $$.State.Name)')).toEqual(['job-1', 'S']);
    expect(
      await call("States.Format('{}.{}', States.ArrayGetItem(States.StringSplit($.arn, ':'), 2), States.ArrayLength(States.Array(1, 2)))", {
        arn: 'a:b:c:d',
      }),
    ).toBe('c.2');
  });
  test('paths with brackets, quotes and filters as arguments', async () => {
    expect(await call("States.Array($['a b'], $.list[?(@.x > 1)].x)", { 'a b': 1, list: [{ x: 1 }, { x: 2 }, { x: 3 }] })).toEqual([1, [2, 3]]);
  });
  test('malformed expressions, unknown functions, missing paths and deep nesting fail with States.IntrinsicFailure', async () => {
    expect(await failure("States.Format('x'")).toBe('States.IntrinsicFailure');
    expect(await failure('States.Nope(1)')).toBe('States.IntrinsicFailure');
    expect(await failure('States.Array($.missing)')).toBe('States.IntrinsicFailure');
    expect(await failure('States.Array(1) trailing')).toBe('States.IntrinsicFailure');
    const deep = 'States.Array('.repeat(11) + '1' + ')'.repeat(11);
    expect(await failure(deep)).toBe('States.IntrinsicFailure');
    const ten = 'States.Array('.repeat(10) + '1' + ')'.repeat(10);
    expect(await call(ten)).toEqual([[[[[[[[[[1]]]]]]]]]]);
  });
  test('a `.$` value that is neither path nor intrinsic fails the job with States.Runtime', async () => {
    expect(await failure('plain text')).toBe('States.Runtime');
  });
});

describe('intrinsic functions', () => {
  test('Format', async () => {
    expect(await call("States.Format('Hello, {} {}! {} {}', $.n, 3, true, null)", { n: 'Ann' })).toBe('Hello, Ann 3! true null');
    expect(await call("States.Format('obj {}', $.o)", { o: { a: [1] } })).toBe('obj {"a":[1]}');
    expect(await failure("States.Format('{} {}', 1)")).toBe('States.IntrinsicFailure');
    expect(await failure("States.Format('{}', 1, 2)")).toBe('States.IntrinsicFailure');
    expect(await failure('States.Format(1)')).toBe('States.IntrinsicFailure');
  });
  test('StringToJson / JsonToString', async () => {
    expect(await call('States.StringToJson($.s)', { s: '{"a":[1,2],"b":null}' })).toEqual({ a: [1, 2], b: null });
    expect(await call('States.JsonToString($.o)', { o: { a: 1, b: 'x' } })).toBe('{"a":1,"b":"x"}');
    expect(await failure("States.StringToJson('{oops')")).toBe('States.IntrinsicFailure');
    expect(await failure('States.StringToJson(1)')).toBe('States.IntrinsicFailure');
    expect(await failure('States.JsonToString()')).toBe('States.IntrinsicFailure');
  });
  test('Array, ArrayPartition, ArrayContains, ArrayRange', async () => {
    expect(await call('States.Array()')).toEqual([]);
    expect(await call('States.ArrayPartition($.a, 2)', { a: [1, 2, 3, 4, 5] })).toEqual([[1, 2], [3, 4], [5]]);
    expect(await failure('States.ArrayPartition($.a, 0)', { a: [1] })).toBe('States.IntrinsicFailure');
    expect(await failure("States.ArrayPartition('x', 1)")).toBe('States.IntrinsicFailure');
    expect(await call('States.ArrayContains($.a, $.v)', { a: [1, { x: 1, y: 2 }], v: { y: 2, x: 1 } })).toBe(true);
    expect(await call('States.ArrayContains($.a, 3)', { a: [1, 2] })).toBe(false);
    expect(await failure('States.ArrayContains(1, 1)')).toBe('States.IntrinsicFailure');
    expect(await call('States.ArrayRange(1, 9, 2)')).toEqual([1, 3, 5, 7, 9]);
    expect(await call('States.ArrayRange(5, 1, -2)')).toEqual([5, 3, 1]);
    expect(await failure('States.ArrayRange(1, 2, 0)')).toBe('States.IntrinsicFailure');
    expect(await failure('States.ArrayRange(0, 5000, 1)')).toBe('States.IntrinsicFailure');
    expect(await failure('States.ArrayRange(1.5, 3, 1)')).toBe('States.IntrinsicFailure');
  });
  test('ArrayGetItem, ArrayLength, ArrayUnique', async () => {
    expect(await call('States.ArrayGetItem($.a, 1)', { a: ['x', 'y'] })).toBe('y');
    expect(await failure('States.ArrayGetItem($.a, 2)', { a: ['x', 'y'] })).toBe('States.IntrinsicFailure');
    expect(await failure('States.ArrayGetItem($.a, -1)', { a: ['x'] })).toBe('States.IntrinsicFailure');
    expect(await call('States.ArrayLength($.a)', { a: [1, 2, 3] })).toBe(3);
    expect(await failure("States.ArrayLength('abc')")).toBe('States.IntrinsicFailure');
    expect(await call('States.ArrayUnique($.a)', { a: [1, 2, 1, { a: 1, b: 2 }, { b: 2, a: 1 }, '1'] })).toEqual([1, 2, { a: 1, b: 2 }, '1']);
    expect(await failure('States.ArrayUnique(1, 2)')).toBe('States.IntrinsicFailure');
  });
  test('Base64Encode / Base64Decode', async () => {
    expect(await call("States.Base64Encode('Data to encode é')")).toBe(Buffer.from('Data to encode é').toString('base64'));
    expect(await call("States.Base64Decode('RGF0YSB0byBlbmNvZGU=')")).toBe('Data to encode');
    expect(await failure("States.Base64Decode('not base64!')")).toBe('States.IntrinsicFailure');
    expect(await failure('States.Base64Encode($.s)', { s: 'x'.repeat(10_001) })).toBe('States.IntrinsicFailure');
    expect(await failure('States.Base64Encode(1)')).toBe('States.IntrinsicFailure');
  });
  test('Hash with every algorithm', async () => {
    for (const [name, node] of [
      ['MD5', 'md5'],
      ['SHA-1', 'sha1'],
      ['SHA-256', 'sha256'],
      ['SHA-384', 'sha384'],
      ['SHA-512', 'sha512'],
    ]) {
      expect(await call(`States.Hash($.d, '${name}')`, { d: 'input data' })).toBe(createHash(node).update('input data').digest('hex'));
    }
    expect(await failure("States.Hash('x', 'SHA-3')")).toBe('States.IntrinsicFailure');
    expect(await failure("States.Hash(1, 'MD5')")).toBe('States.IntrinsicFailure');
  });
  test('JsonMerge (shallow only)', async () => {
    expect(await call('States.JsonMerge($.a, $.b, false)', { a: { x: 1, n: { p: 1 } }, b: { y: 2, n: { q: 2 } } })).toEqual({
      x: 1,
      y: 2,
      n: { q: 2 },
    });
    expect(await failure('States.JsonMerge($.a, $.b, true)', { a: {}, b: {} })).toBe('States.IntrinsicFailure');
    expect(await failure('States.JsonMerge($.a, 1, false)', { a: {} })).toBe('States.IntrinsicFailure');
  });
  test('MathRandom, MathAdd', async () => {
    for (let i = 0; i < 20; i++) {
      const v = (await call('States.MathRandom(3, 6)')) as number;
      expect(Number.isInteger(v) && v >= 3 && v < 6).toBe(true);
    }
    const seeded = await call('States.MathRandom(0, 1000000, 42)');
    expect(await call('States.MathRandom(0, 1000000, 42)')).toBe(seeded);
    expect(await failure('States.MathRandom(5, 5)')).toBe('States.IntrinsicFailure');
    expect(await failure("States.MathRandom('a', 5)")).toBe('States.IntrinsicFailure');
    expect(await call('States.MathAdd($.a, -3)', { a: 10 })).toBe(7);
    expect(await call('States.MathAdd(1.5, 2)')).toBe(3.5);
    expect(await failure("States.MathAdd(1, '2')")).toBe('States.IntrinsicFailure');
    expect(await failure('States.MathAdd(1)')).toBe('States.IntrinsicFailure');
  });
  test('StringSplit, UUID', async () => {
    expect(await call("States.StringSplit('1,2,,3', ',')")).toEqual(['1', '2', '3']);
    expect(await call("States.StringSplit('This.is+a,test=string', '.+,=')")).toEqual(['This', 'is', 'a', 'test', 'string']);
    expect(await failure("States.StringSplit(1, ',')")).toBe('States.IntrinsicFailure');
    const a = (await call('States.UUID()')) as string;
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await call('States.UUID()')).not.toBe(a);
    expect(await failure('States.UUID(1)')).toBe('States.IntrinsicFailure');
  });
  test('an IntrinsicFailure in a Task\'s Parameters can be caught', async () => {
    const r = await runToEnd(
      {
        StartAt: 'T',
        States: {
          T: { Type: 'Task', Resource: 'echo', Parameters: { 'v.$': 'States.ArrayLength(1)' }, Catch: [{ ErrorEquals: ['States.IntrinsicFailure'], Next: 'C' }], End: true },
          C: { Type: 'Pass', End: true },
        },
      },
      { a: 1 },
    );
    expect(r.status).toBe('SUCCEEDED');
    expect((r.output as { Error: string }).Error).toBe('States.IntrinsicFailure');
  });
});
