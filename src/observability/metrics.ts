/**
 * Prometheus metrics (prom-client), one registry per app instance: HTTP request counts and latency per
 * route template, GraphQL operation counts and latency per operation name. Label values are bounded
 * (route templates, not raw URLs; a capped set of operation names) so clients cannot explode cardinality.
 */
import { Counter, CounterConfiguration, Gauge, Metric, Registry } from 'prom-client';
import { ProcessMetrics, startProcessMetrics } from './process-metrics';

const MAX_OPERATION_NAMES = 200;
const OPERATION_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * A prom-client Counter counted per request: the increments are tallied per label values in a Map and added to the
 * counter when it is read (each scrape, through the counter's `collect`). prom-client validates and hashes the label
 * object on every `inc`; a count only a scrape reads does not need that work per request. The label values are the
 * same bounded sets as the counter's own series.
 */
export class TalliedCounter<L extends string> {
  readonly counter: Counter<L>;
  /** The tallies, one per label set seen. */
  private readonly tallies: Array<{ labels: Record<L, string>; n: number }> = [];
  /**
   * The tally of a label set, found through one Map per label (in declared order) keyed by the label's value: no
   * key string is built per increment.
   */
  private readonly root = new Map<string, unknown>();
  private readonly labelNames: readonly L[];

  constructor(config: Omit<CounterConfiguration<L>, 'collect' | 'labelNames'> & { labelNames: readonly L[] }) {
    const tallies = this.tallies;
    this.labelNames = config.labelNames;
    this.counter = new Counter<L>({
      ...config,
      collect() {
        for (const t of tallies) {
          if (t.n > 0) {
            this.inc(t.labels, t.n);
            t.n = 0;
          }
        }
      },
    });
  }

  inc(labels: Record<L, string>): void {
    const names = this.labelNames;
    let level = this.root;
    for (let i = 0; i < names.length - 1; i++) {
      const value = labels[names[i]];
      let next = level.get(value) as Map<string, unknown> | undefined;
      if (!next) level.set(value, (next = new Map()));
      level = next;
    }
    const last = labels[names[names.length - 1]];
    const t = level.get(last) as { n: number } | undefined;
    if (t) {
      t.n++;
      return;
    }
    // The series' labels in the declared order (prom-client writes them in the order of the object it is given).
    const kept = {} as Record<L, string>;
    for (const name of names) kept[name] = labels[name];
    const tally = { labels: kept, n: 1 };
    level.set(last, tally);
    this.tallies.push(tally);
  }
}

/** One label set's observations of a TalliedHistogram: counts per bucket (not cumulative), sum and count. */
interface HistogramTally<L extends string> {
  labels: Record<L, string>;
  /** counts[i]: observations <= upperBounds[i] and above the bound before it. */
  counts: number[];
  sum: number;
  count: number;
}

/** A value of prom-client's exported series (`Metric.get()` / what its registry formats). */
interface SeriesValue {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName: string;
  exemplar?: null;
}

/**
 * A Prometheus histogram observed per request, exported exactly as prom-client's Histogram exports the same
 * observations (same series, label order, bucket, sum and count values; `test/unit/tallied-histogram.spec.ts`
 * compares the two registries' texts). prom-client's `observe` validates and hashes the label object on every call;
 * here a label set's tally is found through one Map per label, as TalliedCounter does. It is registered in the
 * registry as prom-client's own metrics are: the registry asks it for its values at each scrape and formats them.
 */
export class TalliedHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram' as const;
  readonly aggregator = 'sum' as const;
  readonly labelNames: readonly L[];
  readonly upperBounds: readonly number[];
  private tallies: HistogramTally<L>[] = [];
  private root = new Map<string, unknown>();

  constructor(config: { name: string; help: string; labelNames: readonly L[]; buckets: readonly number[]; registers: Registry[] }) {
    if (config.labelNames.length === 0) throw new Error('TalliedHistogram: a histogram without labels is prom-client\'s own');
    if (config.labelNames.includes('le' as L)) throw new Error('le is a reserved label keyword');
    this.name = config.name;
    this.help = config.help;
    this.labelNames = config.labelNames;
    // prom-client's order: ascending, as given (it does not sort either).
    this.upperBounds = Object.freeze([...config.buckets]);
    for (const r of config.registers) r.registerMetric(this as unknown as Metric<L>);
  }

  observe(labels: Record<L, string>, value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const names = this.labelNames;
    let level = this.root;
    for (let i = 0; i < names.length - 1; i++) {
      const v = labels[names[i]];
      let next = level.get(v) as Map<string, unknown> | undefined;
      if (!next) level.set(v, (next = new Map()));
      level = next;
    }
    const last = labels[names[names.length - 1]];
    let t = level.get(last) as HistogramTally<L> | undefined;
    if (!t) {
      // The label object as given (prom-client keeps the first one it was given for a label set, in its key order).
      t = { labels: { ...labels }, counts: new Array<number>(this.upperBounds.length).fill(0), sum: 0, count: 0 };
      level.set(last, t);
      this.tallies.push(t);
    }
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        t.counts[i]++;
        break;
      }
    }
    t.sum += value;
    t.count++;
  }

  /** prom-client's `Histogram.reset()`: every label set forgotten. */
  reset(): void {
    this.tallies = [];
    this.root = new Map();
  }

  /** What prom-client's Histogram answers its registry for the text format: `le` first, then the label set. */
  async getForPromString(): Promise<{ name: string; help: string; type: 'histogram'; values: SeriesValue[]; aggregator: 'sum' }> {
    const bucket = `${this.name}_bucket`;
    const values: SeriesValue[] = [];
    for (const t of this.tallies) {
      let acc = 0;
      for (let i = 0; i < this.upperBounds.length; i++) {
        acc += t.counts[i];
        values.push({ labels: { le: this.upperBounds[i] }, sharedLabels: t.labels, value: acc, metricName: bucket, exemplar: null });
      }
      values.push({ labels: { le: '+Inf' }, sharedLabels: t.labels, value: t.count, metricName: bucket, exemplar: null });
      values.push({ labels: {}, sharedLabels: t.labels, value: t.sum, metricName: `${this.name}_sum`, exemplar: undefined });
      values.push({ labels: {}, sharedLabels: t.labels, value: t.count, metricName: `${this.name}_count`, exemplar: undefined });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** prom-client's `Histogram.get()`: the same values with each label set merged into its labels. */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; values: SeriesValue[]; aggregator: 'sum' }> {
    const data = await this.getForPromString();
    data.values = data.values.map(({ sharedLabels, labels, ...rest }) => ({ ...rest, labels: Object.assign(labels, sharedLabels) }));
    return data;
  }
}

export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: TalliedCounter<'method' | 'route' | 'status'>;
  readonly httpDuration: TalliedHistogram<'method' | 'route' | 'status'>;
  readonly graphqlOperations: TalliedCounter<'operation' | 'type' | 'outcome'>;
  readonly graphqlDuration: TalliedHistogram<'operation' | 'type'>;
  readonly graphqlExecutions: TalliedCounter<'executor'>;
  private readonly seenOperations = new Set<string>();
  private readonly processMetrics: ProcessMetrics | undefined;

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    if (opts.defaultMetrics !== false) this.processMetrics = startProcessMetrics(this.registry);
    this.httpRequests = new TalliedCounter({
      name: 'http_requests_total',
      help: 'HTTP requests by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.httpDuration = new TalliedHistogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: BUCKETS,
      registers: [this.registry],
    });
    this.graphqlOperations = new TalliedCounter({
      name: 'graphql_operations_total',
      help: 'GraphQL operations by operation name, type and outcome (success, error).',
      labelNames: ['operation', 'type', 'outcome'],
      registers: [this.registry],
    });
    this.graphqlDuration = new TalliedHistogram({
      name: 'graphql_operation_duration_seconds',
      help: 'GraphQL operation latency by operation name and type.',
      labelNames: ['operation', 'type'],
      buckets: BUCKETS,
      registers: [this.registry],
    });
    this.graphqlExecutions = new TalliedCounter({
      name: 'graphql_executions_total',
      help: "GraphQL executions by executor: a query's compiled plan, or graphql-js (mutations, introspection, failures).",
      labelNames: ['executor'],
      registers: [this.registry],
    });
  }

  /** Stops what the process metrics run in the background (the app is closing). */
  close(): void {
    this.processMetrics?.stop();
  }

  /** Hits, misses and bytes of an app's memos, read at each scrape. */
  registerMemos(memos: () => Array<[string, { hits: number; misses: number; usedBytes: number; size: number }]>): void {
    new Gauge({
      name: 'rest_memo_bytes',
      help: 'Bytes held by each REST answer memo (memoized answer texts and an estimate of the rows they were made from).',
      labelNames: ['memo'],
      registers: [this.registry],
      collect() {
        for (const [memo, m] of memos()) this.set({ memo }, m.usedBytes);
      },
    });
    new Gauge({
      name: 'rest_memo_entries',
      help: 'Texts held by each REST answer memo.',
      labelNames: ['memo'],
      registers: [this.registry],
      collect() {
        for (const [memo, m] of memos()) this.set({ memo }, m.size);
      },
    });
    const counted = new Map<string, number>();
    new Counter({
      name: 'rest_memo_lookups_total',
      help: 'Lookups in each REST answer memo by outcome (hit: a memoized text made from the same rows was answered again).',
      labelNames: ['memo', 'outcome'],
      registers: [this.registry],
      collect() {
        for (const [memo, m] of memos()) {
          for (const [outcome, n] of [['hit', m.hits], ['miss', m.misses]] as const) {
            const key = `${memo}\u0000${outcome}`;
            const delta = n - (counted.get(key) ?? 0);
            this.inc({ memo, outcome }, Math.max(0, delta));
            counted.set(key, n);
          }
        }
      },
    });
  }

  /** A bounded label for an operation name supplied by a client. */
  operationLabel(name: string | null | undefined): string {
    if (!name) return 'anonymous';
    if (!OPERATION_NAME_RE.test(name)) return 'invalid';
    if (this.seenOperations.has(name)) return name;
    if (this.seenOperations.size >= MAX_OPERATION_NAMES) return 'other';
    this.seenOperations.add(name);
    return name;
  }
}
