/**
 * Definition checks off the event loop for large definitions: asl-validator costs ~0.5 s per MiB, so a definition
 * above INLINE_LIMIT characters is checked in one piscina worker thread (started on demand, ended after a minute
 * idle), with a time limit; small ones (the common case) are checked inline, where a thread hop would cost more than
 * the check. close() ends the thread.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Piscina } from 'piscina';
import { UnavailableError, ValidationError } from '../../errors/app-error';
import { checkDefinition, diagnoseDefinition, type CheckedDefinition, type CheckOptions, type Diagnosis } from './definition-check';
import { WORKFLOW_CODES } from './error-codes';

/** Definitions up to this many characters are checked on the event loop (well under a millisecond). */
export const INLINE_LIMIT = 16 * 1024;
const CHECK_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 60_000;

function workerFile(): string {
  if (__filename.endsWith('.js')) return path.join(__dirname, 'definition-check-worker.js');
  const root = path.resolve(__dirname, '..', '..', '..');
  return path.join(root, 'dist', path.relative(root, __dirname), 'definition-check-worker.js');
}

export class DefinitionCheckPool {
  private pool: Piscina | undefined;
  private readonly timeoutMs: number;
  /** Settles when every check handed to the thread so far has ended: checks go in one at a time. */
  private tail: Promise<void> = Promise.resolve();

  constructor(opts: { timeoutMs?: number } = {}) {
    this.timeoutMs = opts.timeoutMs ?? CHECK_TIMEOUT_MS;
  }

  async check(text: string, opts: CheckOptions = {}): Promise<CheckedDefinition> {
    if (typeof text !== 'string' || text.length <= INLINE_LIMIT) return checkDefinition(text, opts);
    const answer = await this.inWorker<{ ok: CheckedDefinition } | { invalid: string }>(text, opts, 'default');
    if ('invalid' in answer) throw new ValidationError(answer.invalid, { domainCode: WORKFLOW_CODES.INVALID_DEFINITION });
    return answer.ok;
  }

  /** All diagnostics of a definition (ValidateStateMachineDefinition), large ones off the event loop too. */
  async diagnose(text: string, opts: CheckOptions = {}): Promise<Diagnosis> {
    if (text.length <= INLINE_LIMIT) return diagnoseDefinition(text, opts);
    return this.inWorker<Diagnosis>(text, opts, 'diagnose');
  }

  private async inWorker<T>(text: string, opts: CheckOptions, name: string): Promise<T> {
    if (!this.pool) {
      const filename = workerFile();
      if (!existsSync(filename)) throw new Error(`the definition checker's worker ${filename} is missing: build with npm run build`);
      this.pool = new Piscina({ filename, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_TIMEOUT_MS, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    }
    // The time limit is the check's own: time spent waiting behind other checks says nothing about this definition.
    // A check that waited longer than the limit is refused as busy (503, which clients retry), not as invalid.
    const pool = this.pool;
    const queuedAt = performance.now();
    const before = this.tail;
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    this.tail = before.then(() => mine);
    let answer: T;
    try {
      await before;
      if (performance.now() - queuedAt > this.timeoutMs) throw new UnavailableError('Definition checks are busy; try again');
      try {
        answer = (await pool.run({ text, opts }, { name, signal: AbortSignal.timeout(this.timeoutMs) })) as T;
      } catch {
        // Timed out, or the thread ran out of its memory.
        throw new ValidationError('Invalid State Machine Definition: \'SCHEMA_VALIDATION_FAILED: The definition could not be validated within the time and memory limits\'', { domainCode: WORKFLOW_CODES.INVALID_DEFINITION });
      }
    } finally {
      done();
    }
    return answer;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await pool.destroy();
  }
}
