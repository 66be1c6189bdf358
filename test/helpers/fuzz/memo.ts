/**
 * Arbitraries built once per argument list. The generators build fast-check arbitraries inside `chain` (they
 * depend on a value drawn first: a binding, a depth, the slot to break), and building one costs far more than
 * drawing from it (`fc.string` tokenizes its default slices, `fc.constantFrom` indexes its values): the same few
 * were built again for every case. An arbitrary is an immutable description of how to draw, so drawing from a
 * shared one gives exactly the values a fresh one gives.
 */
const RESULT = Symbol('result');

type Node = Map<unknown, Node> & { [RESULT]?: { value: unknown } };

/** `f` with its results kept per argument list (arguments compared by identity, as Map keys). */
export function memoized<A extends unknown[], R>(f: (...args: A) => R): (...args: A) => R {
  const root: Node = new Map();
  return (...args: A): R => {
    let node = root;
    for (const a of [args.length, ...args]) {
      let next = node.get(a);
      if (!next) node.set(a, (next = new Map() as Node));
      node = next;
    }
    const kept = node[RESULT];
    if (kept) return kept.value as R;
    const value = f(...args);
    node[RESULT] = { value };
    return value;
  };
}
