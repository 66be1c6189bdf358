/**
 * One autocannon run (in a child process, see load-worker.ts) and the numbers the report keeps.
 */
import { fork } from 'node:child_process';
import * as path from 'node:path';
import type autocannon from 'autocannon';
import { BenchFailure, HttpRequestSpec } from './types';

export interface LoadOptions {
  baseUrl: string;
  request: HttpRequestSpec;
  connections: number;
  durationSec: number;
  /** Every response must have exactly this body (else counted as a mismatch). */
  expectBody?: string;
  /** Send exactly this many requests (then durationSec is ignored). */
  amount?: number;
  title: string;
}

export interface LoadSummary {
  /** autocannon's mean of the per-second request counts */
  reqPerSec: number;
  latencyMs: { avg: number; p50: number; p90: number; p99: number; max: number };
  requests: number;
  /**
   * CPU time of the bench process (gateway and baseline servers; the load generator is a child process) per request
   * during this run, in microseconds: steadier than req/s on a shared machine. Not PostgreSQL's own CPU.
   */
  serverCpuUsPerRequest?: number;
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
  const options: autocannon.Options = {
    url: new URL(opts.request.path, opts.baseUrl).toString(),
    method: opts.request.method,
    headers: opts.request.headers,
    body: opts.request.body,
    connections: opts.connections,
    duration: opts.durationSec,
    timeout: 30,
    title: opts.title,
    ...(opts.expectBody !== undefined ? { expectBody: opts.expectBody } : {}),
    ...(opts.amount !== undefined ? { amount: opts.amount } : {}),
  };
  return new Promise((resolve, reject) => {
    // execArgv: [] so flags such as --cpu-prof given to the bench do not apply to the load generator.
    const child = fork(path.join(__dirname, 'load-worker.js'), [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      child.kill();
      reject(e);
    };
    child.once('message', (m: { ok: true; result: autocannon.Result } | { ok: false; error: string }) => {
      if (settled) return;
      try {
        if (!m.ok) throw new BenchFailure(`autocannon failed for ${opts.title}: ${m.error}`);
        const r = m.result;
        const statusCodes: Record<string, number> = {};
        for (const [code, v] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = Number(v.count);
        const summary: LoadSummary = {
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
        };
        for (const [k, v] of Object.entries({ reqPerSec: summary.reqPerSec, p50: summary.latencyMs.p50, requests: summary.requests })) {
          if (typeof v !== 'number' || !Number.isFinite(v)) throw new BenchFailure(`autocannon result for ${opts.title} has no ${k}`);
        }
        settled = true;
        resolve({ raw: r, summary });
      } catch (e) {
        fail(e instanceof Error ? e : new Error(String(e)));
      }
    });
    child.once('error', fail);
    child.once('exit', (code, signal) => fail(new BenchFailure(`load generator for ${opts.title} exited (${signal ?? code}) before reporting`)));
    child.send(options);
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
