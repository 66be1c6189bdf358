/**
 * The process metrics of an app (src/observability/process-metrics.ts): prom-client's default set under its own
 * names, and nothing left running or reachable once the app's metrics are closed.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { Metrics } from '../../src/observability/metrics';

describe('process metrics', () => {
  it("serve prom-client's default set: process, heap, event loop lag and gc", async () => {
    const m = new Metrics();
    try {
      const types = (await m.registry.metrics()).split('\n').filter((l) => l.startsWith('# TYPE ')).map((l) => l.split(' ')[2]);
      expect(types).toEqual(
        expect.arrayContaining([
          'process_cpu_user_seconds_total',
          'process_resident_memory_bytes',
          'nodejs_heap_size_used_bytes',
          'nodejs_version_info',
          'nodejs_eventloop_lag_seconds',
          'nodejs_eventloop_lag_p99_seconds',
          'nodejs_gc_duration_seconds',
        ]),
      );
      expect(new Set(types).size).toBe(types.length);
    } finally {
      m.close();
    }
  });

  // prom-client's own collectDefaultMetrics leaves a gc observer and an event-loop histogram running for the life of
  // the process, and they keep the registry reachable. Run in a separate process (the built code, --expose-gc) so
  // the collection is real.
  it.each([
    ['closed', true, 'freed'],
    ['not closed', false, 'kept'],
  ])('a registry whose metrics were %s is %s after a gc', (_label, close, expected) => {
    const metricsModule = path.join(__dirname, '..', '..', 'dist', 'src', 'observability', 'metrics.js');
    const script = `
      const { Metrics } = require(${JSON.stringify(metricsModule)});
      let refs = [];
      for (let i = 0; i < 5; i++) {
        const m = new Metrics();
        refs.push(new WeakRef(m.registry));
        if (${close}) m.close();
      }
      setTimeout(() => {
        global.gc();
        setTimeout(() => {
          global.gc();
          const alive = refs.filter((r) => r.deref() !== undefined).length;
          console.log(alive === 0 ? 'freed' : alive === refs.length ? 'kept' : 'some kept: ' + alive);
          process.exit(0);
        }, 50);
      }, 50);
    `;
    const out = execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' }).trim();
    expect(out).toBe(expected);
  });
});
