/**
 * iCalendar parsing off the main thread: one piscina worker thread (started on demand, ended after a minute
 * idle, unref'd so it never keeps a process alive), as the secret detector's pool does. close() ends it.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Piscina } from 'piscina';
import type { ParseResult } from './parse';

const IDLE_TIMEOUT_MS = 60_000;
/** A parse that takes longer is abandoned (hostile files: rules that expand without end). */
export const PARSE_TIMEOUT_MS = 30_000;

function workerFile(): string {
  if (__filename.endsWith('.js')) return path.join(__dirname, 'worker.js');
  const root = path.resolve(__dirname, '..', '..', '..', '..');
  return path.join(root, 'dist', path.relative(root, __dirname), 'worker.js');
}

export class IcsParsePool {
  private pool: Piscina | undefined;
  private closed = false;

  async parse(source: string, signal?: AbortSignal): Promise<ParseResult | { syntaxError: string }> {
    if (this.closed) throw new Error('the iCalendar importer is shut down');
    if (!this.pool) {
      const filename = workerFile();
      if (!existsSync(filename)) throw new Error(`the iCalendar importer's worker ${filename} is missing: build with npm run build`);
      // The thread's heap is bounded: a file that makes ical.js allocate without end kills the thread, not the process.
      this.pool = new Piscina({ filename, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_TIMEOUT_MS, niceIncrement: 10, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    }
    const limit = AbortSignal.timeout(PARSE_TIMEOUT_MS);
    try {
      return (await this.pool.run(source, { signal: signal ? AbortSignal.any([signal, limit]) : limit })) as ParseResult | { syntaxError: string };
    } catch (e) {
      if (signal?.aborted) throw e;
      // Timed out, or the thread ran out of its memory: the file cannot be imported.
      return { syntaxError: 'The iCalendar file could not be parsed within the import\'s time and memory limits.' };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await pool.destroy();
  }
}
