/**
 * One autocannon run (in a worker thread, see load-worker.ts) and the numbers the report keeps.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type autocannon from 'autocannon';
import { BenchFailure, HttpRequestSpec } from './types';

export interface LoadOptions {
  baseUrl: string;
  request: HttpRequestSpec;
  connections: number;
  durationSec: number;
  /** Every response must have exactly this body (else counted as a mismatch). */
  expectBody?: string;
  title: string;
}

export interface LoadSummary {
  /** autocannon's mean of the per-second request counts */
  reqPerSec: number;
  latencyMs: { avg: number; p50: number; p90: number; p99: number; max: number };
  requests: number;
  durationSec: number;
  bytesPerSec: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  statusCodes: Record<string, number>;
}

export interface LoadRun {
  summary: LoadSummary;
  raw: autocannon.Result;
}

export function runLoad(opts: LoadOptions): Promise<LoadRun> {
  const workerData: autocannon.Options = {
    url: new URL(opts.request.path, opts.baseUrl).toString(),
    method: opts.request.method,
    headers: opts.request.headers,
    body: opts.request.body,
    connections: opts.connections,
    duration: opts.durationSec,
    timeout: 30,
    title: opts.title,
    ...(opts.expectBody !== undefined ? { expectBody: opts.expectBody } : {}),
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(__dirname, 'load-worker.js'), { workerData });
    let settled = false;
    worker.once('message', (m: { ok: true; result: autocannon.Result } | { ok: false; error: string }) => {
      settled = true;
      if (!m.ok) return reject(new BenchFailure(`autocannon failed for ${opts.title}: ${m.error}`));
      const r = m.result;
      const statusCodes: Record<string, number> = {};
      for (const [code, v] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = Number(v.count);
      resolve({
        raw: r,
        summary: {
          reqPerSec: r.requests.average,
          latencyMs: { avg: r.latency.average, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
          requests: r.requests.total,
          durationSec: r.duration,
          bytesPerSec: r.throughput.average,
          non2xx: r.non2xx,
          errors: r.errors,
          timeouts: r.timeouts,
          mismatches: r.mismatches,
          statusCodes,
        },
      });
    });
    worker.once('error', (e) => {
      settled = true;
      reject(e);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new BenchFailure(`load worker for ${opts.title} exited with code ${code} before reporting`));
    });
  });
}

/** Throw unless every response of the run was a 2xx with the expected body and nothing failed. */
export function assertCleanRun(title: string, s: LoadSummary): void {
  const problems: string[] = [];
  if (s.requests === 0) problems.push('no request completed');
  if (s.non2xx > 0) problems.push(`${s.non2xx} non-2xx responses (${JSON.stringify(s.statusCodes)})`);
  if (s.errors > 0) problems.push(`${s.errors} errors`);
  if (s.timeouts > 0) problems.push(`${s.timeouts} timeouts`);
  if (s.mismatches > 0) problems.push(`${s.mismatches} responses differed from the verified body`);
  if (problems.length) throw new BenchFailure(`${title}: ${problems.join('; ')}`);
}
