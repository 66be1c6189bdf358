import { TextKeyedCache } from '../../../src/services/workflow/text-cache';

describe('TextKeyedCache (definition-text keyed caches stay bounded in memory)', () => {
  it('evicts the oldest entries when the keys\' characters exceed the budget, not only by count', () => {
    const c = new TextKeyedCache<number>(1000, 3 * 1024 * 1024);
    const mib = (ch: string) => ch.repeat(1024 * 1024);
    for (const [i, ch] of ['a', 'b', 'c', 'd', 'e'].entries()) c.set(mib(ch), i);
    expect([c.size, c.heldChars]).toEqual([3, 3 * 1024 * 1024]);
    expect([c.get(mib('a')), c.get(mib('b')), c.get(mib('c')), c.get(mib('e'))]).toEqual([undefined, undefined, 2, 4]);
  });
  it('never keeps a key larger than the whole budget, and bounds the count too', () => {
    const c = new TextKeyedCache<number>(2, 100);
    c.set('x'.repeat(101), 1);
    expect(c.size).toBe(0);
    c.set('a', 1);
    c.set('b', 2);
    c.set('c', 3);
    c.set('b', 4);
    expect([c.size, c.get('a'), c.get('b'), c.get('c'), c.heldChars]).toEqual([2, undefined, 4, 3, 2]);
  });
});
