/**
 * Tasks that wait for someone outside the runner: activity tasks (a Task whose Resource is an activity ARN, handed
 * to a worker by GetActivityTask) and callbacks (`arn:aws:states:::<task>.waitForTaskToken`: the gateway's own task
 * runs with `$$.Task.Token` in its Parameters, then the state waits for SendTask*). The engine stays free of storage:
 * the runner passes `external` (AdvanceOptions) that registers such a task and reports how it stands; the thread waits
 * in phase 'X' without a runner slot, its wake time being the task's timeout or heartbeat deadline.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Checkpoint, Json, Thread } from './types';

/** Where a thread's attempt stands (same text as the attempt key the runner's tasks get). */
export function attemptKeyOf(cp: Checkpoint, th: Thread): string {
  return `${cp.ctx.executionArn}#${th.k}${th.s}@${th.n}#${th.a ?? 0}`;
}

const ACTIVITY_ARN = /^arn:aws(?:-[a-z]+)*:states:[a-z]{2}(?:-[a-z]+)+-\d{1,2}:\d{12}:activity:[^:\s]{1,80}$/;
// The gateway's own tasks (`echo`, `calendar.importEvents`) and service integrations (`http:invoke`).
const CALLBACK = /^arn:aws(?:-[a-z]+)*:states:::([A-Za-z][A-Za-z0-9_.-]{0,63}(?::[A-Za-z][A-Za-z0-9]{0,63})?)\.waitForTaskToken$/;

export type ExternalKind = { kind: 'activity' } | { kind: 'callback'; task: string };

/** Is this Task resource an activity or a callback (and of which own task)? null: an ordinary task. */
export function externalKind(resource: string): ExternalKind | null {
  if (ACTIVITY_ARN.test(resource)) return { kind: 'activity' };
  const m = CALLBACK.exec(resource);
  // a service integration's task is named by its resource without the suffix (arn:aws:states:::http:invoke)
  return m ? { kind: 'callback', task: m[1].includes(':') ? `arn:aws:states:::${m[1]}` : m[1] } : null;
}

/** History's resourceType/resource of a callback resource (`arn:aws:states:::echo.waitForTaskToken` -> task, echo.waitForTaskToken). */
export function callbackResourceInfo(resource: string): { resourceType: string; resource: string } {
  const m = CALLBACK.exec(resource);
  if (!m) return { resourceType: 'task', resource };
  const colon = m[1].indexOf(':');
  // arn:aws:states:::http:invoke.waitForTaskToken -> http, invoke.waitForTaskToken (as Step Functions' history names it)
  return colon > 0 ? { resourceType: m[1].slice(0, colon), resource: `${m[1].slice(colon + 1)}.waitForTaskToken` } : { resourceType: 'task', resource: `${m[1]}.waitForTaskToken` };
}

/**
 * Task tokens: 32 random bytes (base64url) behind a version prefix. Unguessable; the database keeps only their
 * SHA-256, so a copy of the database cannot complete tasks.
 */
const TOKEN_PREFIX = 'gwt1.';
const TOKEN_RE = /^gwt1\.[A-Za-z0-9_-]{43}$/;

export function newTaskToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** Is the text shaped like a token this gateway issues? (Anything else is InvalidToken.) */
export function isTaskTokenShape(token: string): boolean {
  return TOKEN_RE.test(token);
}

export function hashTaskToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What the runner registers when a thread starts waiting. */
export interface ExternalTaskSpec {
  kind: 'activity' | 'callback';
  resource: string;
  stateName: string;
  attemptKey: string;
  /** The task's input (after InputPath and Parameters) as JSON text. */
  input: string;
  /** Callbacks: the token handed to the own task (its hash is stored). */
  token?: string;
  /** ISO; the task's TimeoutSeconds as an absolute time; null = none. */
  timeoutAt: string | null;
  heartbeatSeconds: number | null;
}

export type ExternalOutcome =
  | { k: 'ok'; output: string }
  | { k: 'err'; error: string | null; cause: string | null }
  | { k: 'timeout'; error: string; cause: string };

export interface ExternalState {
  /** When a worker took the task (activities), and its name. */
  started?: { at: string; workerName: string | null };
  /** The heartbeat deadline in force (ISO), if any. */
  heartbeatUntil?: string | null;
  /** The task's outcome once it is closed. */
  outcome?: ExternalOutcome;
}

export interface ExternalTasks {
  /** Register the task (idempotent per attempt key); resolves when it is durable. Throw TaskFailure to refuse it. */
  schedule(spec: ExternalTaskSpec): Promise<void>;
  /**
   * How the task stands now; a task past its timeout or heartbeat deadline is closed as timed out by this call
   * (atomically against a concurrent SendTask*, whichever comes first wins). null: no such task registered.
   */
  check(attemptKey: string, now: Date): Promise<ExternalState | null>;
}

/** The threads waiting for an external task (phase 'X') in a checkpoint: attempt key, ActivityStarted recorded. */
export function externalWaits(cp: Checkpoint): Array<{ key: string; started: boolean }> {
  const out: Array<{ key: string; started: boolean }> = [];
  const walk = (th: Thread) => {
    if (th.p === 'X') out.push({ key: attemptKeyOf(cp, th), started: th.sd === 1 });
    if (th.kd) for (const k of th.kd) walk(k);
  };
  if (cp.root) walk(cp.root);
  return out;
}

/** Parse a task's output text (checked as JSON when it was sent). */
export function parseOutput(text: string): Json {
  return JSON.parse(text) as Json;
}
