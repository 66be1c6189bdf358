/**
 * Hostile values for the fuzz test (test/e2e/fuzz.e2e.ts), shared by the REST and GraphQL generators.
 *
 * Values are plain JSON-like data plus two markers:
 *  - RawNumber: a number literal sent verbatim (JSON body, GraphQL literal or variables), e.g. `1e400`, `-0`,
 *    `99999999999`, which JavaScript numbers cannot carry through JSON.stringify;
 *  - EnumName: a GraphQL enum literal (inline: bare name; in variables: a string).
 * No generated string can itself look like a leak (stack frame, SQL, file path): the oracle could not tell
 * an echo of such input from a real leak, so those strings are filtered out here (see `LEAK_PATTERNS`).
 */
import fc from 'fast-check';
import { memoized } from './memo';

export class RawNumber {
  constructor(readonly text: string) {}
  toJSON(): string {
    return `RawNumber(${this.text})`;
  }
}

export class EnumName {
  constructor(readonly name: string) {}
}

export type FuzzValue = string | number | boolean | null | RawNumber | EnumName | FuzzValue[] | { [k: string]: FuzzValue };

/** What a response must never contain. Each entry: name + pattern (applied to the raw response body). */
export const LEAK_PATTERNS: Array<[string, RegExp]> = [
  ['stack frame', /\bat (?:async )?[\w$.<>[\]]+ \([^()\s]*:\d+:\d+\)|\n\s+at \S+[\s\S]{0,200}:\d+:\d+/],
  ['source position', /\.(?:ts|js|mjs|cjs):\d+(?::\d+)?/],
  // Case-sensitive: statements are written in capitals (TypeORM, the migrations); prose is not flagged.
  ['SQL statement', /\b(?:SELECT\s[^\n]{0,300}?\sFROM\s|INSERT\s+INTO\s|UPDATE\s+\S+\s+SET\s|DELETE\s+FROM\s)/],
  ['SQL error', /SQLITE_[A-Z]+|syntax error at or near|QueryFailedError|EntityNotFound|no such (?:column|table)|violates (?:not-null|unique|foreign key)|invalid input syntax for|out of range for type|TypeORMError/i],
  ['filesystem path', /\/work\/|\/home\/|\/root\/|\/usr\/lib\/|node_modules|\bdist\/(?:src|entities|resolvers)\b/],
  ['internal error class', /\b(?:TypeError|ReferenceError|RangeError): /],
];

export function leakIn(text: string): { name: string; match: string } | undefined {
  for (const [name, re] of LEAK_PATTERNS) {
    const m = re.exec(text);
    if (m) return { name, match: m[0].slice(0, 200) };
  }
  return undefined;
}

/** True when the string cannot look like a leak, alone or between slashes (as a URL or path segment). */
const noLeak = (s: string) => leakIn(s) === undefined && leakIn(`/${s}/`) === undefined;

/** Strings a server mishandles: empty, blanks, controls, NUL, unicode, number-like, JSON-like, path-like. */
export const NASTY_STRINGS: string[] = [
  '',
  ' ',
  '\t',
  '\u0000',
  'a\u0000b',
  '\n',
  '\r\n',
  '%',
  '%00',
  '%zz',
  '%ff',
  '..',
  '../..',
  '/',
  '//',
  '\\',
  '?',
  '#',
  '&',
  '=',
  ',',
  ',,,',
  '*',
  'none',
  'null',
  'undefined',
  'true',
  'false',
  '0',
  '-0',
  '-1',
  '1.5',
  '1e400',
  '-1e400',
  '1e-400',
  'NaN',
  'Infinity',
  '-Infinity',
  '99999999999',
  '2147483648',
  '9007199254740993',
  '0x10',
  '1_000',
  ' 1',
  '1 ',
  '+1',
  '01',
  '{}',
  '[]',
  '{"a":1}',
  '[1,2]',
  '"x"',
  "'",
  '"',
  "'; DROP TABLE accounts; --",
  '" OR "1"="1',
  '$where',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '\ud83d\udca9',
  '\ud800',
  '\udfff',
  'Ä',
  'e\u0301',
  '\ufeff',
  '\u00a0',
  'ACME',
  'Acme',
  'acme ',
  'refs/heads/main',
  '2020-01-01T00:00:00Z',
  '0000-00-00T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
];

export const nastyString: fc.Arbitrary<string> = fc.constantFrom(...NASTY_STRINGS);

/** Random strings: printable ascii, full unicode (incl. lone surrogates) and control characters. */
export const randomString: fc.Arbitrary<string> = fc
  .oneof(
    fc.string({ maxLength: 24 }),
    fc.string({ unit: 'binary', maxLength: 24 }),
    fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 6 }),
  )
  .filter(noLeak);

/** A huge string: 10 KB to 120 KB (message echo, body size, per-row cost). */
export const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('a', 'é', 'x,', '%', '\u0000', '\ud83d\udca9'), fc.integer({ min: 10_000, max: 120_000 }))
  .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));

/** Numbers of every awkward kind (as JS numbers or verbatim literals). */
export const awkwardNumber: fc.Arbitrary<number | RawNumber> = fc.oneof(
  fc.constantFrom<number | RawNumber>(
    0,
    -1,
    1.5,
    -0.5,
    2147483647,
    2147483648,
    -2147483649,
    99999999999,
    Number.MAX_SAFE_INTEGER,
    new RawNumber('1e400'),
    new RawNumber('-1e400'),
    new RawNumber('1e-400'),
    new RawNumber('-0'),
    new RawNumber('99999999999999999999999'),
    new RawNumber('1.0'),
    new RawNumber('1E2'),
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON-ish value of any type (objects and arrays where scalars are expected). */
export const anyValue: fc.Arbitrary<FuzzValue> = fc.letrec<{ v: FuzzValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nastyString,
    randomString,
    awkwardNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom('a', '__proto__', 'constructor', 'toString', ''), fc.string({ maxLength: 6 }).filter(noLeak)), tie('v'), { maxKeys: 3 }),
  ),
})).v;

// ---------------------------------------------------------------------------------------------------------
// Tampered cursors and global ids, built from real ones. Each is an arbitrary that picks a generic broken
// value or applies one transformation (uniformly) to one real value, so the number of real values does
// not skew which kinds of breakage are tried.

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');

const GENERIC_CURSORS = [
  '[{"a":1},1]',
  '[[1],1]',
  '[1e400,"x"]',
  '[1e400,1]',
  '["x",1e400]',
  '["2020-01-01T00:00:00.000Z","abc"]',
  '["2020-01-01T00:00:00.000Z",1.5]',
  '["2020-01-01T00:00:00.000Z",99999999999]',
  '["2020-01-01T00:00:00.000Z",1e400]',
  '["2020-01-01T00:00:00.000Z",-1]',
  '["2020-01-01T00:00:00.000Z",{"a":1}]',
  '[true,1]',
  '[null,1]',
  '[null,null]',
  '["not a date",1]',
  '["",""]',
  '[1,2,3]',
  '[]',
  '{}',
  '1',
  '"x"',
  '[',
  '\u0000',
].map(b64);

/** Keep the `[sortValue, id]` shape of a real cursor, break one part's type or range. */
const CURSOR_TRANSFORMS: Array<(c: string) => string> = [
  (c) => c.slice(0, Math.max(1, c.length - 3)),
  (c) => `${c}=`,
  (c) => `${c}A`,
  (c) => Buffer.from(unb64(c), 'utf8').toString('base64'),
  ...[
    (v: unknown, id: unknown) => JSON.stringify([v, String(id)]),
    (v: unknown, id: unknown) => JSON.stringify([v, `${String(id)}x`]),
    (v: unknown) => `[${JSON.stringify(v)},1e400]`,
    (v: unknown) => `[${JSON.stringify(v)},99999999999]`,
    (v: unknown) => `[${JSON.stringify(v)},1.5]`,
    (v: unknown) => `[${JSON.stringify(v)},-0]`,
    (v: unknown, id: unknown) => JSON.stringify([{ v }, id]),
    (v: unknown, id: unknown) => JSON.stringify([[v], id]),
    (_v: unknown, id: unknown) => `[1e400,${JSON.stringify(id)}]`,
    (_v: unknown, id: unknown) => `[-1e400,${JSON.stringify(id)}]`,
    (v: unknown, id: unknown) => JSON.stringify([typeof v === 'string' ? `${v}x` : 'x', id]),
    (v: unknown, id: unknown) => JSON.stringify([typeof v === 'number' ? String(v) : 7, id]),
    (_v: unknown, id: unknown) => JSON.stringify([true, id]),
  ].map((f) => (c: string) => {
    try {
      const [v, id] = JSON.parse(unb64(c)) as [unknown, unknown];
      return b64(f(v, id));
    } catch {
      return b64(f('x', 1));
    }
  }),
];

export const tamperedCursor = memoized(function tamperedCursor(real: string[]): fc.Arbitrary<string> {
  const derived = fc.tuple(fc.constantFrom(...real), fc.integer({ min: 0, max: CURSOR_TRANSFORMS.length - 1 })).map(([c, i]) => CURSOR_TRANSFORMS[i](c));
  return real.length ? fc.oneof(fc.constantFrom(...GENERIC_CURSORS), derived) : fc.constantFrom(...GENERIC_CURSORS);
});

const ID_VALUES = ['abc', '-', '-1', '0', 'NaN', '1e20', '1e400', '1.5', '99999999999', '2147483648', '9007199254740993', '00001', '', '1_2', '0x1'];
const ID_SHAPES = ['User', 'User:', ':1', 'user:1', 'User:1:2', 'User: 1', 'User:1\u0000', '\u0000', 'Nope:1'].map(b64);

export const tamperedId = memoized(function tamperedId(real: string[]): fc.Arbitrary<string> {
  const types = [...new Set(['User', 'Organization', 'Repository', 'SecretScanningAlert', ...real.map((id) => /^([A-Za-z]+):/.exec(unb64(id))?.[1]).filter((t): t is string => Boolean(t))])];
  const typed = fc.tuple(fc.constantFrom(...types), fc.constantFrom(...ID_VALUES)).map(([t, v]) => b64(`${t}:${v}`));
  const derived = fc.tuple(
    fc.constantFrom(...(real.length ? real : [b64('User:1')])),
    fc.constantFrom<(id: string) => string>(
      (id) => id.slice(0, Math.max(1, id.length - 2)),
      (id) => `${id}==`,
      (id) => Buffer.from(unb64(id), 'utf8').toString('base64'),
      (id) => unb64(id),
    ),
  ).map(([id, f]) => f(id));
  return fc.oneof({ arbitrary: typed, weight: 4 }, { arbitrary: fc.constantFrom(...ID_SHAPES, 'A'.repeat(201), '!!'), weight: 1 }, { arbitrary: derived, weight: 1 });
});

/** Parameters that carry a cursor or an id: where decoding bugs live, so they get more bad values. */
export function pointerKind(name: string, typeName?: string): 'cursor' | 'id' | undefined {
  if (/^(after|before|cursor)$/i.test(name)) return 'cursor';
  if (typeName === 'ID' || /^(ids?|.*_id|.*Id|alert_number|number)$/.test(name)) return 'id';
  return undefined;
}
