/**
 * Histograms observed per request (src/observability/metrics.ts TalliedHistogram) against prom-client's own
 * Histogram fed the same observations: a scrape must read the same text (series, label order, bucket counts, sum,
 * count), in both exposition formats, before and after more observations and after a reset.
 */
import { Histogram, Registry } from 'prom-client';
import { TalliedHistogram } from '../../src/observability/metrics';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function pair(contentType?: typeof Registry.OPENMETRICS_CONTENT_TYPE) {
  const plain = new Registry();
  const tallied = new Registry();
  if (contentType) {
    plain.setContentType(contentType as never);
    tallied.setContentType(contentType as never);
  }
  const config = { name: 'probe_duration_seconds', help: 'probe "latency"\\ by a, b', labelNames: ['a', 'b'] as const, buckets: BUCKETS };
  const theirs = new Histogram({ ...config, registers: [plain] });
  const ours = new TalliedHistogram({ ...config, registers: [tallied] });
  return {
    plain,
    tallied,
    observe(labels: { a: string; b: string }, value: number) {
      theirs.observe(labels, value);
      ours.observe(labels, value);
    },
    reset() {
      plain.resetMetrics();
      tallied.resetMetrics();
    },
  };
}

/** A deterministic spread of values: on the bounds, between them, above the last, zero and tiny ones. */
function values(n: number): number[] {
  let x = 12345;
  const out: number[] = [0, 1e-9, 10, 10.000001, 1234.5, ...BUCKETS];
  for (let i = 0; out.length < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push((x / 2147483648) ** 3 * 12);
  }
  return out;
}

describe('TalliedHistogram', () => {
  it.each([
    ['Prometheus text', undefined],
    ['OpenMetrics', Registry.OPENMETRICS_CONTENT_TYPE],
  ])('reads as prom-client Histogram reads the same observations (%s)', async (_name, contentType) => {
    const h = pair(contentType);
    // No observation yet: neither exports a series of a labelled histogram.
    expect(await h.tallied.metrics()).toBe(await h.plain.metrics());
    const labelSets = [
      { a: 'GET', b: '/graphql' },
      { b: 'x', a: 'POST' }, // another key order: the first object given for a label set keeps its order
      { a: 'ab', b: 'c' },
      { a: 'a', b: 'bc' }, // values that a joined key would confuse with the set before
      { a: 'q"uo\\te\n', b: '' }, // values that need escaping
    ];
    const vs = values(400);
    vs.forEach((v, i) => h.observe(labelSets[i % labelSets.length], v));
    const first = await h.tallied.metrics();
    expect(first).toBe(await h.plain.metrics());
    expect(first).toContain('probe_duration_seconds_bucket{le="+Inf",a="GET",b="/graphql"}');
    // JSON form too (prom-client's get(): label sets merged into the labels).
    expect(await h.tallied.getMetricsAsJSON()).toEqual(await h.plain.getMetricsAsJSON());
    // A second scrape without observations reads the same; more observations are added to what was there.
    expect(await h.tallied.metrics()).toBe(first);
    h.observe({ a: 'GET', b: '/graphql' }, 0.003);
    h.observe({ a: 'new', b: 'set' }, 7);
    expect(await h.tallied.metrics()).toBe(await h.plain.metrics());
    // A reset forgets every series in both.
    h.reset();
    expect(await h.tallied.metrics()).toBe(await h.plain.metrics());
    h.observe({ a: 'GET', b: '/graphql' }, 0.2);
    expect(await h.tallied.metrics()).toBe(await h.plain.metrics());
  });

  it('refuses what prom-client refuses: values that are not finite numbers, the reserved label le', () => {
    const registry = new Registry();
    const ours = new TalliedHistogram({ name: 'refuse_seconds', help: 'probe', labelNames: ['a'] as const, buckets: BUCKETS, registers: [registry] });
    for (const v of [NaN, Infinity, -Infinity]) expect(() => ours.observe({ a: 'x' }, v)).toThrow(TypeError);
    expect(() => new TalliedHistogram({ name: 'le_seconds', help: 'probe', labelNames: ['le'] as const, buckets: BUCKETS, registers: [] })).toThrow('le is a reserved');
    // A second metric of the same name in one registry is refused by the registry, as for prom-client's metrics.
    expect(() => new TalliedHistogram({ name: 'refuse_seconds', help: 'probe', labelNames: ['a'] as const, buckets: BUCKETS, registers: [registry] })).toThrow(
      'already been registered',
    );
  });
});
