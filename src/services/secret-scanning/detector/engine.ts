/**
 * Runs secretlint's recommended preset (@secretlint/core + @secretlint/secretlint-rule-preset-recommend)
 * on one file, once, and hands back its messages as plain objects.
 *
 * Loading. Both packages are ESM-only (every release since 7.0). Node >= 20.19 can require() them
 * (require(esm): their module graph has no top-level await), so plain `node dist/...` loads them in this
 * thread. Jest's module loader cannot require() ESM on Node < 24.9, nor import() it without
 * --experimental-vm-modules; there require() throws, and the engine runs in a worker thread instead,
 * whose loader is Node's own. Both paths load the same files and build the same configuration from
 * `engineRuleSettings()`, and return the same messages.
 *
 * Configuration, and why:
 * - The preset's rules are registered one by one instead of through the preset creator, leaving out
 *   `secretlint-rule-filter-comments`: a `secretlint-disable` comment in pushed content must not hide a
 *   secret from alerts (GitHub has no such switch). core 12.0.0 ignores `disabled` on a rule inside a
 *   preset, so leaving the rule out is the only way.
 * - The AWS rule scans for access key IDs only with `enableIDScanRule`; its account-ID message is
 *   suppressed (an account ID is not a secret).
 * - secretlint's profiler (@secretlint/profiler) records a performance mark for every rule of every
 *   file and keeps them all, searching the list on each mark: scans get slower without bound and the
 *   marks are never freed. A server scanning pushes must not profile, so its `mark` is made a no-op.
 * - No physical file path is given: the GCP rule reads `.p12` files from disk by path.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

type CoreModule = typeof import('@secretlint/core', { with: { 'resolution-mode': 'import' } });
type PresetModule = typeof import('@secretlint/secretlint-rule-preset-recommend', { with: { 'resolution-mode': 'import' } });
type CoreMessage = Awaited<ReturnType<CoreModule['lintSource']>>['messages'][number];
type RuleCreator = PresetModule['rules'][number];

export const CORE_PACKAGE = '@secretlint/core';
export const PRESET_PACKAGE = '@secretlint/secretlint-rule-preset-recommend';
const PROFILER_PACKAGE = '@secretlint/profiler';
export const FILTER_COMMENTS_RULE = '@secretlint/secretlint-rule-filter-comments';

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

interface Backend {
  readonly kind: EngineKind;
  lint(input: EngineInput): Promise<EngineMessage[]>;
  rules(): Promise<EngineRule[]>;
}

/** Per-rule settings; serialisable, so the worker builds the very same configuration. */
export interface EngineRuleSetting {
  id: string;
  options?: Record<string, unknown>;
  allowMessageIds?: string[];
}

export function engineRuleSettings(): EngineRuleSetting[] {
  return [{ id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true }, allowMessageIds: ['AWSAccountID'] }];
}

function toEngineMessage(m: CoreMessage): EngineMessage {
  return { ruleId: m.ruleId, messageId: m.messageId, range: [m.range[0], m.range[1]], data: { ...(m.data ?? {}) } };
}

// ------------------------------------------------------------------ in this thread

function loadInProcess(): Backend {
  // require() of an ES module: works in Node >= 20.19 and throws under jest (see the header).
  const core = require(CORE_PACKAGE) as CoreModule;
  const preset = require(PRESET_PACKAGE) as PresetModule;
  const profilerPath = require.resolve(PROFILER_PACKAGE, { paths: [path.dirname(require.resolve(CORE_PACKAGE))] });
  const profiler = require(profilerPath) as { secretLintProfiler?: { mark: (...args: unknown[]) => void } };
  if (profiler.secretLintProfiler) profiler.secretLintProfiler.mark = () => undefined;

  const settings = new Map(engineRuleSettings().map((s) => [s.id, s]));
  const rules = preset.rules.filter((rule: RuleCreator) => rule.meta.id !== FILTER_COMMENTS_RULE);
  const config = {
    rules: rules.map((rule: RuleCreator) => {
      const s = settings.get(rule.meta.id);
      return { id: rule.meta.id, rule, options: s?.options, allowMessageIds: s?.allowMessageIds };
    }),
  };
  return {
    kind: 'in-process',
    async lint(input) {
      const result = await core.lintSource({
        source: { content: input.content, filePath: input.filePath ?? '', ext: input.ext, contentType: 'text' },
        options: { config, maskSecrets: false, noPhysicFilePath: true, locale: 'en' },
      });
      return result.messages.map(toEngineMessage);
    },
    async rules() {
      return rules.map((rule: RuleCreator) => ({ ruleId: rule.meta.id, messageIds: Object.keys(rule.messages ?? {}) }));
    },
  };
}

// ------------------------------------------------------------------ in a worker thread

/**
 * The worker's program (CommonJS, evaluated by Node itself). It mirrors loadInProcess: same files, same
 * rules, same settings (passed in workerData), same message projection.
 */
const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const loaded = Promise.all([workerData.core, workerData.preset, workerData.profiler].map((p) => import(pathToFileURL(p).href))).then(
  ([core, preset, profiler]) => {
    if (profiler.secretLintProfiler) profiler.secretLintProfiler.mark = () => undefined;
    const settings = new Map(workerData.settings.map((s) => [s.id, s]));
    const rules = preset.rules.filter((rule) => rule.meta.id !== workerData.filterCommentsRule);
    const config = {
      rules: rules.map((rule) => {
        const s = settings.get(rule.meta.id);
        return { id: rule.meta.id, rule, options: s && s.options, allowMessageIds: s && s.allowMessageIds };
      }),
    };
    return { core, rules, config };
  },
);
// A failed load is reported to each request below; do not let it crash the worker first.
loaded.catch(() => undefined);
parentPort.on('message', async (req) => {
  try {
    const { core, rules, config } = await loaded;
    if (req.op === 'rules') {
      const out = rules.map((rule) => ({ ruleId: rule.meta.id, messageIds: Object.keys(rule.messages || {}) }));
      parentPort.postMessage({ id: req.id, ok: true, value: out });
      return;
    }
    const input = req.input;
    const result = await core.lintSource({
      source: { content: input.content, filePath: input.filePath ?? '', ext: input.ext, contentType: 'text' },
      options: { config, maskSecrets: false, noPhysicFilePath: true, locale: 'en' },
    });
    const out = result.messages.map((m) => ({
      ruleId: m.ruleId,
      messageId: m.messageId,
      range: [m.range[0], m.range[1]],
      data: Object.assign({}, m.data || {}),
    }));
    parentPort.postMessage({ id: req.id, ok: true, value: out });
  } catch (err) {
    parentPort.postMessage({ id: req.id, ok: false, error: String((err && err.stack) || err) });
  }
});
`;

/** A worker that is kept while busy and ended after a short idle time (it never keeps the process alive). */
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

function createWorkerBackend(): Backend {
  const core = require.resolve(CORE_PACKAGE);
  return new WorkerBackend({
    core,
    preset: require.resolve(PRESET_PACKAGE),
    profiler: require.resolve(PROFILER_PACKAGE, { paths: [path.dirname(core)] }),
    settings: engineRuleSettings(),
    filterCommentsRule: FILTER_COMMENTS_RULE,
  });
}

// ------------------------------------------------------------------ choosing

let backend: Backend | undefined;

function getBackend(): Backend {
  if (!backend) {
    try {
      backend = loadInProcess();
    } catch {
      // This runtime's require() cannot load ES modules (jest): run secretlint in a worker thread.
      backend = createWorkerBackend();
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
