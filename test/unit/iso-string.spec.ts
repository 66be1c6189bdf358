import { isoString } from '../../src/graphql/exec/compiled-query';

describe('isoString (DateTimeISO leaves on the compiled path)', () => {
  it('equals toISOString for dates with four-digit years', () => {
    let seed = 11;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const lo = Date.UTC(1000, 0, 1);
    const hi = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    for (let i = 0; i < 20_000; i++) {
      const d = new Date(Math.floor(lo + rnd() * (hi - lo)));
      expect(isoString(d)).toBe(d.toISOString());
    }
    for (const t of [lo, hi, 0, Date.UTC(2024, 1, 29, 23, 59, 59, 9), Date.UTC(2000, 0, 1, 0, 0, 0, 90)]) expect(isoString(new Date(t))).toBe(new Date(t).toISOString());
  });
});
