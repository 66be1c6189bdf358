/**
 * Bracket-syntax parameters (src/rest/bracket-params.ts): PHP's reading of `a[]`, `a[0]`, `a[k]`, and the bounds
 * every such parser goes through (indexes are keys, nesting depth, parameter count), checked structurally.
 */
import { MAX_DEPTH, MAX_PARAMS, ParamsOverLimitError, parseBracketParams } from '../../src/rest/bracket-params';
import { wordpressFamily } from '../../src/rest/wordpress/family';

describe('bracket parameters (PHP $_POST)', () => {
  it('reads scalars, lists and objects as PHP does', () => {
    expect(parseBracketParams('a=1&a=2&b[]=x&b[]=y&c[city]=Oslo&d[0][name]=N&d[1][name]=M&e[1]=one&e[0]=zero')).toEqual({
      a: '2',
      b: ['x', 'y'],
      c: { city: 'Oslo' },
      d: [{ name: 'N' }, { name: 'M' }],
      // Indexes are keys in the order sent (WordPress's array_values).
      e: ['one', 'zero'],
    });
    // A container mixing indexes and names is an object (PHP keeps both keys).
    expect(parseBracketParams('m[]=1&m[x]=2')).toEqual({ m: { '0': '1', x: '2' } });
    // `[]` appends after the largest index so far.
    expect(parseBracketParams('n[5]=a&n[]=b')).toEqual({ n: ['a', 'b'] });
    expect(parseBracketParams('__proto__[x]=1&p[constructor]=1&q[__proto__][y]=2')).toEqual({});
    expect(Object.getPrototypeOf({}).x).toBeUndefined();
  });

  it('an index is a key, never a position: a huge index holds one entry', () => {
    for (const index of ['99999999', '999999999', '9007199254740993', '4294967295']) {
      const parsed = parseBracketParams(`title[${index}]=x&categories[${index}]=3&categories[1]=4`);
      expect(parsed).toEqual({ title: ['x'], categories: ['3', '4'] });
    }
    // Five such fields: five entries.
    const five = parseBracketParams(Array.from({ length: 5 }, (_, i) => `f${i}[99999999${i}]=x`).join('&'));
    expect(Object.values(five).map((v) => (v as unknown[]).length)).toEqual([1, 1, 1, 1, 1]);
    // Not a PHP integer (too long): an object key.
    expect(parseBracketParams('t[99999999999999999999]=x')).toEqual({ t: { '99999999999999999999': 'x' } });
  });

  it(`refuses more than ${MAX_PARAMS} parameters and more than ${MAX_DEPTH} levels with the family's 400`, () => {
    expect(Object.keys(parseBracketParams(Array.from({ length: MAX_PARAMS }, (_, i) => `p${i}=1`).join('&')))).toHaveLength(MAX_PARAMS);
    const tooMany = () => parseBracketParams(Array.from({ length: MAX_PARAMS + 1 }, (_, i) => `p${i}=1`).join('&'));
    expect(tooMany).toThrow(ParamsOverLimitError);
    // Counted before decoding: empty pairs count too.
    expect(() => parseBracketParams('&'.repeat(MAX_PARAMS))).toThrow(ParamsOverLimitError);
    const deep = (levels: number) => `a${'[x]'.repeat(levels)}=1`;
    expect(parseBracketParams(deep(MAX_DEPTH))).toBeDefined();
    expect(() => parseBracketParams(deep(MAX_DEPTH + 1))).toThrow(ParamsOverLimitError);
    try {
      tooMany();
    } catch (e) {
      const r = wordpressFamily.errorReply(e as ParamsOverLimitError);
      expect(r).toEqual({ status: 400, body: { code: 'rest_bad_request', message: `Too many parameters: at most ${MAX_PARAMS} are accepted.`, data: { status: 400 } }, headers: {} });
    }
  });
});
