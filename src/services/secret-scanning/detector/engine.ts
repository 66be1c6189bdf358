/**
 * Runs secretlint's recommended preset (@secretlint/core + @secretlint/secretlint-rule-preset-recommend)
 * on one file, once, and hands back its messages as plain objects.
 *
 * Loading. Both packages are ESM-only (every release since 7.0). Node >= 20.19 can require() them
 * (require(esm): their module graph has no top-level await), so plain `node dist/...` loads them in this
 * thread. Jest's module loader cannot require() ESM on Node < 24.9, nor import() it without
 * --experimental-vm-modules; there require() throws, and the engine runs in a worker thread instead,
 * whose loader is Node's own. Either way the same runner (RUNNER_SOURCE, plain JavaScript) drives
 * secretlint, so both give the same messages.
 *
 * Configuration, and why:
 * - The preset's rules are registered one by one instead of through the preset creator, leaving out
 *   `secretlint-rule-filter-comments`: a `secretlint-disable` comment in pushed content must not hide a
 *   secret from alerts (GitHub has no such switch). core 12.0.0 ignores `disabled` on a rule inside a
 *   preset, so leaving the rule out is the only way.
 * - The AWS rule scans for access key IDs only with `enableIDScanRule`; its account-ID message is
 *   suppressed (an account ID is not a secret).
 * - secretlint's profiler (@secretlint/profiler) records a performance mark for every rule of every
 *   file and keeps them all, searching the list on each mark: scans get slower without bound (2,000
 *   small files took 36 s instead of 0.3 s) and the marks are never freed. Its `mark` is made a no-op.
 * - secretlint removes duplicate messages by comparing each with all the later ones, which is
 *   quadratic: a 1 MB file of 24,000 token-shaped strings took 150 s. So each rule hands secretlint at
 *   most MESSAGES_PER_RULE messages per file and the runner keeps the rest itself (the detector
 *   de-duplicates in linear time), which keeps every finding and bounds the quadratic part.
 * - No physical file path is given: the GCP rule reads `.p12` files from disk by path.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

export const CORE_PACKAGE = '@secretlint/core';
export const PRESET_PACKAGE = '@secretlint/secretlint-rule-preset-recommend';
const PROFILER_PACKAGE = '@secretlint/profiler';
export const FILTER_COMMENTS_RULE = '@secretlint/secretlint-rule-filter-comments';
const MESSAGES_PER_RULE = 200;

/** One secretlint message, reduced to what the detector uses. */
export interface EngineMessage {
  ruleId: string;
  messageId: string;
  /** [start, end) offsets in the content as given (the caller strips a leading BOM, as secretlint would). */
  range: [number, number];
  /** The rule's message data; holds the secret itself (KEY, TOKEN, ID, URL, URI or CREDENTIAL). */
  data: Record<string, unknown>;
}

export interface EngineInput {
  content: string;
  /** Used by rules that look at the file name (npm: .npmrc, package.json). */
  filePath?: string;
  /** Extension with its dot, e.g. ".json"; the GCP rule looks for service-account JSON files. */
  ext: string;
}

export interface EngineRule {
  ruleId: string;
  messageIds: string[];
}

export type EngineKind = 'in-process' | 'worker';

interface Runner {
  lint(input: EngineInput): Promise<EngineMessage[]>;
  rules(): EngineRule[];
}

/** Per-rule settings (serialisable: the worker gets them in workerData). */
interface RuleSetting {
  id: string;
  options?: Record<string, unknown>;
  allowMessageIds?: string[];
}

const RUNNER_SETTINGS: { rules: RuleSetting[]; excluded: string[]; messagesPerRule: number } = {
  rules: [{ id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true }, allowMessageIds: ['AWSAccountID'] }],
  excluded: [FILTER_COMMENTS_RULE],
  messagesPerRule: MESSAGES_PER_RULE,
};

/**
 * `createRunner(core, preset, profiler, settings)`: plain JavaScript, evaluated as is in this thread
 * or in the worker, so both run exactly the same code (see the header for what it does and why).
 */
const RUNNER_SOURCE = String.raw`(function createRunner(core, preset, profiler, settings) {
  'use strict';
  if (profiler && profiler.secretLintProfiler) profiler.secretLintProfiler.mark = function () {};
  const byId = new Map(settings.rules.map((s) => [s.id, s]));
  const rules = preset.rules.filter((rule) => !settings.excluded.includes(rule.meta.id));
  const project = (ruleId, messageId, range, data) => ({
    ruleId: ruleId,
    messageId: messageId,
    range: [range[0], range[1]],
    data: Object.assign({}, data || {}),
  });
  // A rule whose first messages go to secretlint and the rest to 'overflow'.
  const capped = (rule, overflow) =>
    Object.assign({}, rule, {
      create(context, options) {
        let left = settings.messagesPerRule;
        const limited = Object.assign({}, context, {
          report(descriptor) {
            if (left > 0) {
              left--;
              context.report(descriptor);
              return;
            }
            const m = descriptor.message || {};
            const allowed = (byId.get(rule.meta.id) || {}).allowMessageIds || [];
            if (!allowed.includes(m.messageId)) overflow.push(project(rule.meta.id, m.messageId, descriptor.range, m.data));
          },
        });
        return rule.create(limited, options);
      },
    });
  return {
    async lint(input) {
      const overflow = [];
      const config = {
        rules: rules.map((rule) => {
          const s = byId.get(rule.meta.id) || {};
          return { id: rule.meta.id, rule: capped(rule, overflow), options: s.options, allowMessageIds: s.allowMessageIds };
        }),
      };
      const result = await core.lintSource({
        source: { content: input.content, filePath: input.filePath || '', ext: input.ext, contentType: 'text' },
        options: { config: config, locale: 'en', maskSecrets: false, noPhysicFilePath: true },
      });
      return result.messages.map((m) => project(m.ruleId, m.messageId, m.range, m.data)).concat(overflow);
    },
    rules() {
      return rules.map((rule) => ({ ruleId: rule.meta.id, messageIds: Object.keys(rule.messages || {}) }));
    },
  };
})`;

type CreateRunner = (core: unknown, preset: unknown, profiler: unknown, settings: typeof RUNNER_SETTINGS) => Runner;

interface Backend {
  readonly kind: EngineKind;
  lint(input: EngineInput): Promise<EngineMessage[]>;
  rules(): Promise<EngineRule[]>;
}

function modulePaths(): { core: string; preset: string; profiler: string } {
  const core = require.resolve(CORE_PACKAGE);
  return {
    core,
    preset: require.resolve(PRESET_PACKAGE),
    // the copy @secretlint/core itself imports
    profiler: require.resolve(PROFILER_PACKAGE, { paths: [path.dirname(core)] }),
  };
}

// ------------------------------------------------------------------ in this thread

function loadInProcess(): Backend {
  const paths = modulePaths();
  // require() of ES modules: works in Node >= 20.19, throws under jest (see the header).
  const core: unknown = require(paths.core);
  const preset: unknown = require(paths.preset);
  const profiler: unknown = require(paths.profiler);
  const createRunner = new Function(`return ${RUNNER_SOURCE};`)() as CreateRunner;
  const runner = createRunner(core, preset, profiler, RUNNER_SETTINGS);
  return { kind: 'in-process', lint: (input) => runner.lint(input), rules: async () => runner.rules() };
}

// ------------------------------------------------------------------ in a worker thread

const WORKER_SOURCE = String.raw`'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const createRunner = ${RUNNER_SOURCE};
const paths = workerData.paths;
const runner = Promise.all([paths.core, paths.preset, paths.profiler].map((p) => import(pathToFileURL(p).href))).then(
  ([core, preset, profiler]) => createRunner(core, preset, profiler, workerData.settings),
);
// A failed load is reported to each request below; it must not end the worker first.
runner.catch(() => undefined);
parentPort.on('message', async (req) => {
  try {
    const r = await runner;
    const value = req.op === 'rules' ? r.rules() : await r.lint(req.input);
    parentPort.postMessage({ id: req.id, ok: true, value });
  } catch (err) {
    parentPort.postMessage({ id: req.id, ok: false, error: String((err && err.stack) || err) });
  }
});
`;

/** A worker that is kept while busy and ended after a short idle time; it never keeps the process alive. */
class WorkerBackend implements Backend {
  readonly kind = 'worker';
  private worker: Worker | undefined;
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly workerData: Record<string, unknown>,
    private readonly idleMs = 5_000,
  ) {}

  lint(input: EngineInput): Promise<EngineMessage[]> {
    return this.request({ op: 'lint', input }) as Promise<EngineMessage[]>;
  }

  rules(): Promise<EngineRule[]> {
    return this.request({ op: 'rules' }) as Promise<EngineRule[]>;
  }

  private request(body: Record<string, unknown>): Promise<unknown> {
    const worker = this.ensureWorker();
    const id = ++this.seq;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...body, id });
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.workerData });
    worker.on('message', (msg: { id: number; ok: boolean; value?: unknown; error?: string }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.value);
      else p.reject(new Error(`secretlint failed in its worker: ${msg.error}`));
      if (this.pending.size === 0) this.idle(worker);
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', (err) => fail(new Error(`secretlint worker failed: ${err.message}`)));
    worker.on('exit', (code) => fail(new Error(`secretlint worker exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private idle(worker: Worker): void {
    worker.unref();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.worker === worker && this.pending.size === 0) {
        this.worker = undefined;
        void worker.terminate();
      }
    }, this.idleMs);
    this.idleTimer.unref();
  }
}

// ------------------------------------------------------------------ choosing

let backend: Backend | undefined;

function getBackend(): Backend {
  if (!backend) {
    try {
      backend = loadInProcess();
    } catch {
      // This runtime's require() cannot load ES modules (jest): run secretlint in a worker thread.
      backend = new WorkerBackend({ paths: modulePaths(), settings: RUNNER_SETTINGS });
    }
  }
  return backend;
}

/** Which way secretlint runs in this process (the first call decides). */
export function engineKind(): EngineKind {
  return getBackend().kind;
}

/** Runs the secretlint rules once over one file's content. */
export function lintContent(input: EngineInput): Promise<EngineMessage[]> {
  return getBackend().lint(input);
}

/** The rules the engine runs and the message ids each can report. */
export function engineRules(): Promise<EngineRule[]> {
  return getBackend().rules();
}
