/**
 * The Node.js process metrics of one app (prom-client's default set), stopped when the app closes.
 *
 * prom-client's `collectDefaultMetrics` starts two things nothing can stop (prometheus/client_js#494 and #500): an
 * event-loop-delay histogram sampling every 10 ms and a `gc` PerformanceObserver. Each app that called it left both
 * running for the life of the process, and they kept everything the app was made of reachable: a process that creates
 * apps one after another (the test suite does, once per test file) grew by that much each time and paid a timer and
 * an observer per app ever made. The rest of the default set reads its values when scraped and holds nothing, so it
 * is used as it is; these two are made here, under prom-client's names and help texts, and `stop()` ends them.
 */
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The default metrics that start background work prom-client cannot stop: made below instead. */
const MADE_HERE = new Set(['eventLoopLag', 'gc']);
/** prom-client's own sampling resolution and gc buckets. */
const EVENT_LOOP_RESOLUTION_MS = 10;
const GC_BUCKETS = [0.001, 0.01, 0.1, 1, 2, 5];

type DefaultMetric = (registry: Registry, config: Record<string, unknown>) => void;

/**
 * prom-client's default metrics one by one (`lib/metrics/<name>`, the modules `collectDefaultMetrics` calls); the
 * package declares no `exports`, so these paths are public. A version laid out otherwise fails here, at start-up.
 */
function defaultMetric(name: string): DefaultMetric {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const metric: unknown = require(`prom-client/lib/metrics/${name}`);
  if (typeof metric !== 'function') throw new Error(`prom-client's default metric "${name}" is not where this version of the gateway expects it`);
  return metric as DefaultMetric;
}

export interface ProcessMetrics {
  stop(): void;
}

export function startProcessMetrics(registry: Registry): ProcessMetrics {
  for (const name of collectDefaultMetrics.metricsList) if (!MADE_HERE.has(name)) defaultMetric(name)(registry, {});

  const delay = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
  delay.enable();
  const gauge = (name: string, help: string, aggregator: 'average' | 'min' | 'max' = 'average') =>
    new Gauge({ name: `nodejs_eventloop_lag_${name}`, help, registers: [registry], aggregator });
  const lagMin = gauge('min_seconds', 'The minimum recorded event loop delay.', 'min');
  const lagMax = gauge('max_seconds', 'The maximum recorded event loop delay.', 'max');
  const lagMean = gauge('mean_seconds', 'The mean of the recorded event loop delays.');
  const lagStddev = gauge('stddev_seconds', 'The standard deviation of the recorded event loop delays.');
  const lagP50 = gauge('p50_seconds', 'The 50th percentile of the recorded event loop delays.');
  const lagP90 = gauge('p90_seconds', 'The 90th percentile of the recorded event loop delays.');
  const lagP99 = gauge('p99_seconds', 'The 99th percentile of the recorded event loop delays.');
  const lag: Gauge = new Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Lag of event loop in seconds.',
    registers: [registry],
    aggregator: 'average',
    // As prom-client: this scrape starts a measurement of the lag (read by the next one) and reports the histogram
    // of delays since the previous scrape.
    collect() {
      const start = process.hrtime.bigint();
      setImmediate(() => lag.set(Number(process.hrtime.bigint() - start) / 1e9));
      lagMin.set(delay.min / 1e9);
      lagMax.set(delay.max / 1e9);
      lagMean.set(delay.mean / 1e9);
      lagStddev.set(delay.stddev / 1e9);
      lagP50.set(delay.percentile(50) / 1e9);
      lagP90.set(delay.percentile(90) / 1e9);
      lagP99.set(delay.percentile(99) / 1e9);
      delay.reset();
    },
  });

  const kinds: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
  };
  const gcDuration = new Histogram({
    name: 'nodejs_gc_duration_seconds',
    help: 'Garbage collection duration by kind, one of major, minor, incremental or weakcb.',
    labelNames: ['kind'],
    buckets: GC_BUCKETS,
    registers: [registry],
  });
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = kinds[((entry as { detail?: { kind?: number } }).detail)?.kind ?? -1];
      if (kind) gcDuration.observe({ kind }, entry.duration / 1000);
    }
  });
  gc.observe({ entryTypes: ['gc'] });

  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      delay.disable();
      gc.disconnect();
    },
  };
}
