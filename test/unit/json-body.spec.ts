import { jsonArrayBody } from '../../src/rest/github/json-body';

describe('jsonArrayBody', () => {
  it.each([
    ['empty', []],
    ['one object', [{ a: 1 }]],
    ['nested, nulls, booleans, numbers', [{ a: null, b: [true, false, 0, -0, 1.5e-7, NaN, Infinity], c: { d: 'x' } }, null, 3, 'str']],
    ['skipped values become null in arrays and vanish in objects', [undefined, () => 1, Symbol('s'), { u: undefined, f: () => 1, k: 1 }]],
    ['escaping and non-ASCII', [{ s: 'quote " backslash \\ newline \n tab \t nul \u0000 \u2028 ünï 😀 \ud800 lone' }, '€'.repeat(1000)]],
    ['toJSON', [new Date(Date.UTC(2024, 1, 29)), { toJSON: () => ({ replaced: true }) }]],
  ])('%s: the bytes of JSON.stringify', (_name, items) => {
    const body = jsonArrayBody(items as unknown[]);
    expect(body.equals(Buffer.from(JSON.stringify(items), 'utf8'))).toBe(true);
  });
});
