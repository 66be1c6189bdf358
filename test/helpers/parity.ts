/**
 * REST <-> GraphQL parity: read the same thing over both transports, bring each answer into one common form
 * and compare. A list row must say what it expects: by default the common form must hold at least one item
 * (two empty answers agree about nothing); a row that expects nothing says `expect: 'empty'`, and that
 * emptiness is asserted too.
 */
export interface ParityCase<R, G, N> {
  rest: () => Promise<R>;
  graphql: () => Promise<G>;
  /** Each transport's answer -> the common form. */
  normalize: { rest: (answer: R) => N; graphql: (answer: G) => N };
  /** For a list: 'non-empty' (default) or 'empty'. */
  expect?: 'non-empty' | 'empty';
}

/** Asserts both transports give the same common form (and a list's expected emptiness); returns it. */
export async function expectParity<R, G, N>(c: ParityCase<R, G, N>): Promise<N> {
  const [r, g] = await Promise.all([c.rest(), c.graphql()]);
  const fromRest = c.normalize.rest(r);
  const fromGraphql = c.normalize.graphql(g);
  if (Array.isArray(fromRest)) {
    if (c.expect === 'empty') expect(fromRest).toEqual([]);
    else expect(fromRest.length).toBeGreaterThan(0);
  }
  expect(fromGraphql).toEqual(fromRest);
  return fromRest;
}
