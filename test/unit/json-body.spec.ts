import { jsonArrayOfTexts } from '../../src/rest/json-body';

describe('jsonArrayOfTexts', () => {
  it.each([
    ['empty', []],
    ['one object', [{ a: 1 }]],
    ['nested, nulls, booleans, numbers', [{ a: null, b: [true, false, 0, -0, 1.5e-7, NaN, Infinity], c: { d: 'x' } }, null, 3, 'str']],
    ['escaping and non-ASCII', [{ s: 'quote " backslash \\ newline \n tab \t nul \u0000 \u2028 ünï 😀 \ud800 lone' }, '€'.repeat(1000)]],
    ['toJSON', [new Date(Date.UTC(2024, 1, 29)), { toJSON: () => ({ replaced: true }) }]],
  ])('%s: the bytes of JSON.stringify of the whole array', (_name, items) => {
    const body = jsonArrayOfTexts((items as unknown[]).map((i) => Buffer.from(JSON.stringify(i), 'utf8')));
    expect(body.equals(Buffer.from(JSON.stringify(items), 'utf8'))).toBe(true);
  });
});
