/**
 * Counters counted per request (src/observability/metrics.ts TalliedCounter): what a scrape reads is every
 * increment so far, once, per label set, whether increments come before, between or after scrapes.
 */
import { Registry } from 'prom-client';
import { TalliedCounter } from '../../src/observability/metrics';

describe('TalliedCounter', () => {
  it('a scrape reads every increment so far, once, per label set', async () => {
    const registry = new Registry();
    const c = new TalliedCounter({ name: 'probe_total', help: 'probe', labelNames: ['a', 'b'] as const, registers: [registry] });
    c.inc({ a: 'x', b: '1' });
    c.inc({ a: 'x', b: '1' });
    c.inc({ b: '2', a: 'x' });
    let text = await registry.metrics();
    expect(text).toMatch(/probe_total\{a="x",b="1"\} 2\n/);
    expect(text).toMatch(/probe_total\{a="x",b="2"\} 1\n/);
    // A second scrape without increments reads the same totals (nothing added twice).
    text = await registry.metrics();
    expect(text).toMatch(/probe_total\{a="x",b="1"\} 2\n/);
    c.inc({ a: 'x', b: '2' });
    c.inc({ a: 'y', b: '1' });
    text = await registry.metrics();
    expect(text).toMatch(/probe_total\{a="x",b="1"\} 2\n/);
    expect(text).toMatch(/probe_total\{a="x",b="2"\} 2\n/);
    expect(text).toMatch(/probe_total\{a="y",b="1"\} 1\n/);
    // prom-client's own reader sees the same values.
    const values = (await c.counter.get()).values.map((v) => [v.labels.a, v.labels.b, v.value]).sort();
    expect(values).toEqual([['x', '1', 2], ['x', '2', 2], ['y', '1', 1]]);
  });

  it('label values that differ only where a naive key would join them stay apart', async () => {
    const registry = new Registry();
    const c = new TalliedCounter({ name: 'apart_total', help: 'probe', labelNames: ['a', 'b'] as const, registers: [registry] });
    c.inc({ a: 'ab', b: 'c' });
    c.inc({ a: 'a', b: 'bc' });
    const text = await registry.metrics();
    expect(text).toMatch(/apart_total\{a="ab",b="c"\} 1\n/);
    expect(text).toMatch(/apart_total\{a="a",b="bc"\} 1\n/);
  });
});
