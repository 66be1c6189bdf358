/**
 * Definition → compiled machine: paths parsed, templates and Choice rules turned into closures, Retry/Catch
 * normalised with their defaults. Done once per definition text (or object) and cached. Compiling never throws:
 * a definition the engine cannot run gets a `problem`, and the job fails with States.Runtime on its first advance.
 */
import type { AslDefinition, Json } from './types';
import { compilePath, parseSimple, type CompiledPath, type Seg } from './paths';
import { compileTemplate, type Template } from './template';
import { compileRule, type Cond } from './choice';
import { TextKeyedCache } from '../text-cache';
import { compileJTemplate, type JTemplate } from './jsonata';
import { compileJState, type JState } from './jsonata-state';

export type QueryLanguage = 'JSONPath' | 'JSONata';

export interface Retrier {
  errors: string[];
  interval: number;
  max: number;
  backoff: number;
  maxDelay: number | null;
  jitter: boolean;
}

/** ResultPath: `set` at a reference path ([] = replace the input), `discard` (null), or `bad` (not a reference path). */
export type ResultPathSpec = { k: 'set'; segs: Seg[]; raw: string } | { k: 'discard' } | { k: 'bad'; raw: string };

export interface Catcher {
  errors: string[];
  next: string;
  resultPath: ResultPathSpec;
  /** JSONPath Assign (`$` is the error output) */
  assign?: Template;
  /** JSONata Assign / Output */
  jAssign?: JTemplate;
  jOutput?: JTemplate;
}

export type StateType = 'Pass' | 'Task' | 'Choice' | 'Wait' | 'Succeed' | 'Fail' | 'Parallel' | 'Map';

export interface CState {
  name: string;
  type: StateType | 'Unknown';
  rawType: string;
  next: string | null;
  end: boolean;
  /** undefined = `$` (whole input); null = `{}`; else a path */
  inputPath: CompiledPath | null | undefined;
  outputPath: CompiledPath | null | undefined;
  parameters?: Template;
  resultSelector?: Template;
  resultPath: ResultPathSpec;
  result?: Json;
  hasResult: boolean;
  retry: Retrier[];
  catch: Catcher[];
  // Task
  resource: string;
  timeoutSeconds?: number;
  timeoutSecondsPath?: CompiledPath;
  heartbeatSeconds?: number;
  heartbeatSecondsPath?: CompiledPath;
  // Choice
  choices: Array<{ cond: Cond; next: string; assign?: Template }>;
  default?: string;
  // Wait
  seconds?: number;
  timestamp?: string;
  secondsPath?: CompiledPath;
  timestampPath?: CompiledPath;
  // Fail
  error?: string;
  cause?: string;
  errorPath?: CompiledPath;
  causePath?: CompiledPath;
  // Parallel
  branches: Machine[];
  // Map
  itemsPath?: CompiledPath;
  itemSelector?: Template;
  processor?: Machine;
  maxConcurrency: number;
  maxConcurrencyPath?: CompiledPath;
  /** Map with `ProcessorConfig.Mode: DISTRIBUTED`: its children are executions of their own (map-runs) */
  dist?: DistConfig;
  /** a feature this engine does not run (the job fails with States.Runtime rather than doing something else) */
  unsupported?: string;
  ql: QueryLanguage;
  /** JSONata states: their expression fields */
  jn?: JState;
  /** JSONPath Assign (a template like Parameters) */
  assign?: Template;
}

/** A Distributed Map's own fields. Numbers are the literal values; `*Path` (JSONPath) and `j*` (JSONata) forms. */
export interface DistConfig {
  executionType: 'STANDARD' | 'EXPRESS';
  /** Label, or the state's name made a valid name: the Map Run's and children's ARNs carry it. */
  label: string;
  /** The ItemProcessor as a state machine of its own (the children's definition text). */
  definition: string;
  maxItemsPerBatch?: number;
  maxItemsPerBatchPath?: CompiledPath;
  maxInputBytesPerBatch?: number;
  maxInputBytesPerBatchPath?: CompiledPath;
  batchInput?: Template;
  jBatchInput?: JTemplate;
  batched: boolean;
  toleratedFailureCount?: number;
  toleratedFailureCountPath?: CompiledPath;
  jToleratedFailureCount?: JTemplate;
  toleratedFailurePercentage?: number;
  toleratedFailurePercentagePath?: CompiledPath;
  jToleratedFailurePercentage?: JTemplate;
}

export interface Machine {
  startAt: string;
  states: Map<string, CState>;
  timeoutSeconds: number | null;
  problem: string | null;
  /** A Distributed Map is among its states, in any branch or processor (its jobs may have Map Runs). */
  distributed: boolean;
}

const TYPES = new Set(['Pass', 'Task', 'Choice', 'Wait', 'Succeed', 'Fail', 'Parallel', 'Map']);

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function optPath(v: unknown): CompiledPath | null | undefined {
  if (v === null) return null;
  if (typeof v === 'string') return compilePath(v);
  return undefined;
}

export function compileResultPath(v: unknown): ResultPathSpec {
  if (v === null) return { k: 'discard' };
  if (v === undefined) return { k: 'set', segs: [], raw: '$' };
  if (typeof v !== 'string' || !v.startsWith('$') || v.startsWith('$$')) return { k: 'bad', raw: String(v) };
  const segs = parseSimple(v, 1);
  return segs ? { k: 'set', segs, raw: v } : { k: 'bad', raw: v };
}

function compileState(name: string, raw: unknown, inherited: QueryLanguage): CState {
  const s = isObj(raw) ? raw : {};
  const ql: QueryLanguage = s.QueryLanguage === 'JSONata' ? 'JSONata' : s.QueryLanguage === 'JSONPath' ? 'JSONPath' : inherited;
  const rawType = typeof s.Type === 'string' ? s.Type : '';
  const type = (TYPES.has(rawType) ? rawType : 'Unknown') as CState['type'];
  const st: CState = {
    name,
    type,
    rawType,
    next: typeof s.Next === 'string' ? s.Next : null,
    end: s.End === true,
    inputPath: optPath(s.InputPath),
    outputPath: optPath(s.OutputPath),
    resultPath: compileResultPath(s.ResultPath),
    hasResult: 'Result' in s,
    result: s.Result as Json,
    retry: [],
    catch: [],
    resource: typeof s.Resource === 'string' ? s.Resource : '',
    choices: [],
    branches: [],
    maxConcurrency: 0,
    ql,
  };
  if (ql === 'JSONata') st.jn = compileJState(s, type);
  else if (s.Assign !== undefined) st.assign = compileTemplate(s.Assign, 'Assign');
  if (s.InputPath !== undefined && st.inputPath === undefined) st.inputPath = compilePath(String(s.InputPath));
  if (s.OutputPath !== undefined && st.outputPath === undefined) st.outputPath = compilePath(String(s.OutputPath));
  const params = type === 'Map' ? (s.ItemSelector ?? s.Parameters) : s.Parameters;
  if (type === 'Map') {
    if (params !== undefined) st.itemSelector = compileTemplate(params, '');
  } else if (params !== undefined) st.parameters = compileTemplate(params, '');
  if (s.ResultSelector !== undefined) st.resultSelector = compileTemplate(s.ResultSelector, '');

  if (Array.isArray(s.Retry)) {
    for (const r of s.Retry) {
      if (!isObj(r)) continue;
      st.retry.push({
        errors: strs(r.ErrorEquals),
        interval: Math.max(0, num(r.IntervalSeconds) ?? 1),
        max: Math.max(0, Math.floor(num(r.MaxAttempts) ?? 3)),
        backoff: Math.max(1, num(r.BackoffRate) ?? 2),
        maxDelay: num(r.MaxDelaySeconds) ?? null,
        jitter: r.JitterStrategy === 'FULL',
      });
    }
  }
  if (Array.isArray(s.Catch)) {
    for (const c of s.Catch) {
      if (!isObj(c) || typeof c.Next !== 'string') continue;
      const catcher: Catcher = { errors: strs(c.ErrorEquals), next: c.Next, resultPath: compileResultPath(c.ResultPath) };
      if (ql === 'JSONata') {
        if (c.Assign !== undefined) catcher.jAssign = compileJTemplate(c.Assign, 'Catch.Assign');
        if (c.Output !== undefined) catcher.jOutput = compileJTemplate(c.Output, 'Catch.Output');
      } else if (c.Assign !== undefined) catcher.assign = compileTemplate(c.Assign, 'Assign');
      st.catch.push(catcher);
    }
  }
  switch (type) {
    case 'Task':
      st.timeoutSeconds = num(s.TimeoutSeconds);
      if (typeof s.TimeoutSecondsPath === 'string') st.timeoutSecondsPath = compilePath(s.TimeoutSecondsPath);
      st.heartbeatSeconds = num(s.HeartbeatSeconds);
      if (typeof s.HeartbeatSecondsPath === 'string') st.heartbeatSecondsPath = compilePath(s.HeartbeatSecondsPath);
      break;
    case 'Choice':
      if (Array.isArray(s.Choices) && ql === 'JSONPath') {
        for (const c of s.Choices) {
          const assign = isObj(c) && c.Assign !== undefined ? compileTemplate(c.Assign, 'Assign') : undefined;
          st.choices.push({ cond: compileRule(c), next: isObj(c) && typeof c.Next === 'string' ? c.Next : '', assign });
        }
      }
      if (typeof s.Default === 'string') st.default = s.Default;
      break;
    case 'Wait':
      st.seconds = num(s.Seconds);
      if (typeof s.Timestamp === 'string') st.timestamp = s.Timestamp;
      if (typeof s.SecondsPath === 'string') st.secondsPath = compilePath(s.SecondsPath);
      if (typeof s.TimestampPath === 'string') st.timestampPath = compilePath(s.TimestampPath);
      break;
    case 'Fail':
      if (typeof s.Error === 'string') st.error = s.Error;
      if (typeof s.Cause === 'string') st.cause = s.Cause;
      if (typeof s.ErrorPath === 'string') st.errorPath = compilePath(s.ErrorPath);
      if (typeof s.CausePath === 'string') st.causePath = compilePath(s.CausePath);
      break;
    case 'Parallel':
      st.branches = Array.isArray(s.Branches) ? s.Branches.map((b) => compileMachine(b, false, inherited)) : [];
      break;
    case 'Map': {
      st.itemsPath = typeof s.ItemsPath === 'string' ? compilePath(s.ItemsPath) : undefined;
      st.processor = compileMachine(s.ItemProcessor ?? s.Iterator, false, inherited);
      const mc = num(s.MaxConcurrency);
      st.maxConcurrency = mc !== undefined && mc > 0 ? Math.floor(mc) : 0;
      if (typeof s.MaxConcurrencyPath === 'string') st.maxConcurrencyPath = compilePath(s.MaxConcurrencyPath);
      if (s.ItemReader !== undefined) st.unsupported = 'ItemReader (items read from Amazon S3) is not supported: pass the items in the state input';
      else if (s.ResultWriter !== undefined) st.unsupported = 'ResultWriter (results written to Amazon S3) is not supported';
      const proc = isObj(s.ItemProcessor) ? s.ItemProcessor : undefined;
      const pc = proc && isObj(proc.ProcessorConfig) ? proc.ProcessorConfig : undefined;
      if (pc?.Mode === 'DISTRIBUTED') st.dist = compileDist(name, s, proc!, pc, ql);
      break;
    }
  }
  return st;
}

const LABEL_FORBIDDEN = /[\s<>{}[\]?*"#%\\^|~`$&,;:/\u0000-\u001f\u007f-\u009f]/gu;

function compileDist(name: string, s: Record<string, unknown>, proc: Record<string, unknown>, pc: Record<string, unknown>, ql: QueryLanguage): DistConfig {
  const label = typeof s.Label === 'string' && s.Label !== '' ? s.Label : name.replace(LABEL_FORBIDDEN, '_').slice(0, 40) || 'Map';
  // The children's own machine: the processor's states, in the Map's query language (a child reads no outer variables).
  const { ProcessorConfig: _pc, ...machine } = proc;
  const definition = JSON.stringify({ ...machine, QueryLanguage: typeof proc.QueryLanguage === 'string' ? proc.QueryLanguage : ql });
  const d: DistConfig = { executionType: pc.ExecutionType === 'EXPRESS' ? 'EXPRESS' : 'STANDARD', label, definition, batched: false };
  const b = isObj(s.ItemBatcher) ? s.ItemBatcher : undefined;
  const jn = ql === 'JSONata';
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  if (b) {
    d.batched = true;
    d.maxItemsPerBatch = n(b.MaxItemsPerBatch);
    d.maxInputBytesPerBatch = n(b.MaxInputBytesPerBatch);
    if (typeof b.MaxItemsPerBatchPath === 'string') d.maxItemsPerBatchPath = compilePath(b.MaxItemsPerBatchPath);
    if (typeof b.MaxInputBytesPerBatchPath === 'string') d.maxInputBytesPerBatchPath = compilePath(b.MaxInputBytesPerBatchPath);
    if (b.BatchInput !== undefined) {
      if (jn) d.jBatchInput = compileJTemplate(b.BatchInput, 'ItemBatcher.BatchInput');
      else d.batchInput = compileTemplate(b.BatchInput, '');
    }
  }
  if (jn) {
    if (s.ToleratedFailureCount !== undefined) d.jToleratedFailureCount = compileJTemplate(s.ToleratedFailureCount, 'ToleratedFailureCount');
    if (s.ToleratedFailurePercentage !== undefined) d.jToleratedFailurePercentage = compileJTemplate(s.ToleratedFailurePercentage, 'ToleratedFailurePercentage');
  } else {
    d.toleratedFailureCount = n(s.ToleratedFailureCount);
    d.toleratedFailurePercentage = n(s.ToleratedFailurePercentage);
    if (typeof s.ToleratedFailureCountPath === 'string') d.toleratedFailureCountPath = compilePath(s.ToleratedFailureCountPath);
    if (typeof s.ToleratedFailurePercentagePath === 'string') d.toleratedFailurePercentagePath = compilePath(s.ToleratedFailurePercentagePath);
  }
  return d;
}

/** `inherited`: the query language of the enclosing machine (nested branches and processors take the top level's). */
export function compileMachine(def: unknown, top: boolean, inherited: QueryLanguage = 'JSONPath'): Machine {
  const m: Machine = { startAt: '', states: new Map(), timeoutSeconds: null, problem: null, distributed: false };
  if (!isObj(def)) {
    m.problem = 'The state machine definition is not an object';
    return m;
  }
  if (typeof def.StartAt !== 'string') m.problem = 'The state machine definition has no StartAt';
  else m.startAt = def.StartAt;
  const ql: QueryLanguage = top ? (def.QueryLanguage === 'JSONata' ? 'JSONata' : 'JSONPath') : inherited;
  if (isObj(def.States)) {
    for (const [name, s] of Object.entries(def.States)) m.states.set(name, compileState(name, s, ql));
  } else m.problem ??= 'The state machine definition has no States';
  if (!m.problem && !m.states.has(m.startAt)) m.problem = `StartAt names a missing state '${m.startAt.slice(0, 80)}'`;
  for (const st of m.states.values()) {
    if (st.dist || st.processor?.distributed || st.branches?.some((b) => b.distributed)) m.distributed = true;
  }
  if (top) {
    const t = num(def.TimeoutSeconds);
    if (t !== undefined && t > 0) m.timeoutSeconds = t;
  }
  if (!m.problem) {
    for (const st of m.states.values()) {
      const sub = st.type === 'Parallel' ? st.branches.find((b) => b.problem) : st.type === 'Map' ? st.processor : undefined;
      if (st.type === 'Map' && st.unsupported) {
        m.problem = `State '${st.name.slice(0, 80)}': ${st.unsupported}`;
        break;
      }
      if (sub?.problem) {
        m.problem = `State '${st.name.slice(0, 80)}': ${sub.problem}`;
        break;
      }
    }
  }
  return m;
}

/** At most 256 definitions and 16 Mi characters of definition text (a compiled machine is smaller than its text). */
const byText = new TextKeyedCache<Machine>(256, 16 * 1024 * 1024);
const byObject = new WeakMap<object, Machine>();

/**
 * Whether jobs of this definition text may have Map Runs (a Distributed Map anywhere in it): the runner looks for
 * runs to abort at a job's end only then. A text that does not compile has none (its jobs fail before any Map).
 */
export function usesDistributedMap(definition: string): boolean {
  return machineOf(definition).distributed;
}

/** The compiled machine of a definition (text or object), cached. */
export function machineOf(definition: AslDefinition | string): Machine {
  if (typeof definition === 'string') {
    let m = byText.get(definition);
    if (m) return m;
    let parsed: unknown;
    try {
      parsed = JSON.parse(definition);
    } catch {
      parsed = undefined;
    }
    m = parsed === undefined ? { ...compileMachine(null, true), problem: 'The state machine definition is not valid JSON' } : compileMachine(parsed, true);
    byText.set(definition, m);
    return m;
  }
  if (definition === null || typeof definition !== 'object') return compileMachine(definition, true);
  let m = byObject.get(definition);
  if (!m) {
    m = compileMachine(definition, true);
    byObject.set(definition, m);
  }
  return m;
}
