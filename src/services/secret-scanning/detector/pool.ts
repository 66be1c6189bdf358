/**
 * Secret detection off the main thread: a piscina pool of worker threads, each running the whole
 * detection of a batch of files (./worker). The main thread only sends content and receives findings,
 * so a backfill or a large push never holds other requests.
 *
 * - Size: DETECTOR_THREADS, by default one less than the machine's available parallelism (at least 1),
 *   leaving a core to the main thread.
 * - Files are sent in batches (at most FILES_PER_TASK files or about BYTES_PER_TASK bytes per task):
 *   a 1,000-file push is a handful of round trips, and the batches of one call run on all threads.
 * - The threads run at a lower CPU priority than the main thread (nice +NICE_INCREMENT, Linux): when
 *   the CPUs are busy, answering requests wins over scanning.
 * - Threads are started on demand and ended after IDLE_TIMEOUT_MS without work; an idle thread is
 *   unref'd by piscina, so it never keeps a process (the admin CLI, a test) alive. close() ends them.
 * - The worker is plain JavaScript: worker.js next to this file when running from dist/, and the
 *   compiled copy in dist/ when this file runs as TypeScript (jest; its global setup builds dist/).
 */
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Piscina } from 'piscina';
import type { DetectedSecret } from './index';
import type { DetectFile } from './worker';

export type { DetectFile };

const FILES_PER_TASK = 200;
const BYTES_PER_TASK = 512 * 1024;
const IDLE_TIMEOUT_MS = 30_000;
/** Detection threads run at a lower CPU priority (Linux, via piscina's niceIncrement): requests go first. */
const NICE_INCREMENT = 10;

/** One less than the machine's available parallelism, at least 1. */
export function defaultDetectorThreads(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

/** The worker's file: always JavaScript. */
export function detectorWorkerFile(): string {
  if (__filename.endsWith('.js')) return path.join(__dirname, 'worker.js');
  const root = path.resolve(__dirname, '..', '..', '..', '..');
  return path.join(root, 'dist', path.relative(root, __dirname), 'worker.js');
}

/** Groups files into tasks of at most FILES_PER_TASK files and about BYTES_PER_TASK characters. */
function batches(files: DetectFile[]): DetectFile[][] {
  const out: DetectFile[][] = [];
  let current: DetectFile[] = [];
  let size = 0;
  for (const f of files) {
    if (current.length && (current.length >= FILES_PER_TASK || size + f.content.length > BYTES_PER_TASK)) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(f);
    size += f.content.length;
  }
  if (current.length) out.push(current);
  return out;
}

export class DetectorPool {
  readonly threads: number;
  private pool: Piscina | undefined;
  private closed = false;

  constructor(threads: number = defaultDetectorThreads()) {
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`detector threads must be a positive integer (got ${threads})`);
    this.threads = threads;
  }

  /** Finds the secrets of each file (the same as detectSecrets), in the order given. */
  async detect(files: DetectFile[], signal?: AbortSignal): Promise<DetectedSecret[][]> {
    if (files.length === 0) return [];
    const pool = this.getPool();
    const tasks = batches(files.map((f) => (f.path ? { content: f.content, path: f.path } : { content: f.content })));
    const results = await Promise.all(tasks.map((t) => pool.run(t, signal ? { signal } : {}) as Promise<DetectedSecret[][]>));
    return results.flat();
  }

  /** Ends the threads (tasks still running are rejected); detect() fails afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await pool.destroy();
  }

  private getPool(): Piscina {
    if (this.closed) throw new Error('the secret detector is shut down');
    if (!this.pool) {
      const filename = detectorWorkerFile();
      if (!existsSync(filename)) throw new Error(`the secret detector's worker ${filename} is missing: build with npm run build`);
      this.pool = new Piscina({ filename, minThreads: 0, maxThreads: this.threads, idleTimeout: IDLE_TIMEOUT_MS, niceIncrement: NICE_INCREMENT });
    }
    return this.pool;
  }
}
