/**
 * Prometheus metrics (prom-client), one registry per app instance: HTTP request counts and latency per
 * route template, GraphQL operation counts and latency per operation name. Label values are bounded
 * (route templates, not raw URLs; a capped set of operation names) so clients cannot explode cardinality.
 */
import { Counter, CounterConfiguration, Gauge, Histogram, Registry } from 'prom-client';
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

export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: TalliedCounter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly graphqlOperations: TalliedCounter<'operation' | 'type' | 'outcome'>;
  readonly graphqlDuration: Histogram<'operation' | 'type'>;
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
    this.httpDuration = new Histogram({
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
    this.graphqlDuration = new Histogram({
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
