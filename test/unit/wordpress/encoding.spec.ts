/**
 * wp_json_encode (what WordPress answers with) and PHP-style form bodies (what WordPress reads).
 */
import { parseFormBody } from '../../../src/rest/wordpress/form-body';
import { wpJsonEncode } from '../../../src/rest/wordpress/json';

describe('wpJsonEncode', () => {
  it('escapes / as \\/ and non-ASCII as lower-case \\uXXXX, astral characters as surrogate pairs', () => {
    expect(wpJsonEncode({ url: 'https://example.com/a/b' })).toBe('{"url":"https:\\/\\/example.com\\/a\\/b"}');
    expect(wpJsonEncode('Café – Zürich')).toBe('"Caf\\u00e9 \\u2013 Z\\u00fcrich"');
    expect(wpJsonEncode('🎉')).toBe('"\\ud83c\\udf89"');
    expect(wpJsonEncode({ 'clé/x': ['æøå'] })).toBe('{"cl\\u00e9\\/x":["\\u00e6\\u00f8\\u00e5"]}');
  });

  it('the output is pure ASCII and parses back to the same value', () => {
    const value = { a: 'x/y\\z"q', b: 'naïve 😀 \u2028 \ud800', c: [1, null, true], d: '</script>' };
    const out = wpJsonEncode(value);
    expect(/^[\x20-\x7e]*$/.test(out)).toBe(true);
    expect(JSON.parse(out)).toEqual(value);
  });

  it('plain ASCII is JSON.stringify unchanged', () => {
    const v = { id: 1, title: 'Hello', list: [] };
    expect(wpJsonEncode(v)).toBe(JSON.stringify(v));
  });
});

describe('parseFormBody (PHP $_POST)', () => {
  it('plain fields; a repeated field keeps its last value', () => {
    expect(parseFormBody('title=Jazz+night&start_date=2026-01-01%2018%3A00&title=Late+jazz')).toEqual({ title: 'Late jazz', start_date: '2026-01-01 18:00' });
  });

  it('name[] is a list, name[key] an object, nesting works', () => {
    expect(parseFormBody('categories[]=1&categories[]=2&venue[venue]=Hall&venue[city]=Aarhus&organizer[0][organizer]=Ann&organizer[1][organizer]=Bo')).toEqual({
      categories: ['1', '2'],
      venue: { venue: 'Hall', city: 'Aarhus' },
      organizer: [{ organizer: 'Ann' }, { organizer: 'Bo' }],
    });
  });

  it('never writes to prototypes', () => {
    const out = parseFormBody('__proto__[x]=1&a[__proto__][y]=2&constructor[prototype][z]=3');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).y).toBeUndefined();
    expect(({} as Record<string, unknown>).z).toBeUndefined();
    expect(Object.keys(out)).toEqual([]);
  });
});
