/**
 * One declaration per REST parameter (issue 7 item 2): every parameter a route row documents is a declaration
 * that also reads the value (src/rest/params.ts), so what OpenAPI says and what the row parses cannot drift
 * apart; and a parameter name is declared once per family, whichever domain's rows take it.
 */
import type { Param } from '../../src/rest/params';
import { REST_ROUTES } from '../../src/rest/routes';

describe('REST parameter declarations', () => {
  it.each(REST_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: every documented parameter is a declaration that reads it', (_name, r) => {
    for (const p of r.parameters ?? []) expect(typeof (p as Param<unknown>).read).toBe('function');
  });

  it('a path or header parameter of one family is declared once (the same object on every row)', () => {
    const byKey = new Map<string, Set<unknown>>();
    for (const r of REST_ROUTES) {
      for (const p of r.parameters ?? []) {
        if (p.in === 'query') continue; // query names are the rows' own (e.g. hide_secret documented per row)
        const key = `${r.family} ${p.in} ${p.name}`;
        byKey.set(key, (byKey.get(key) ?? new Set()).add(p));
      }
    }
    const declaredTwice = [...byKey].filter(([, objs]) => objs.size > 1).map(([k]) => k);
    expect(declaredTwice).toEqual([]);
  });
});
