/** ASL runtime errors: every problem the engine meets while running a job becomes one of these. */

export const E = {
  ALL: 'States.ALL',
  TaskFailed: 'States.TaskFailed',
  Timeout: 'States.Timeout',
  HeartbeatTimeout: 'States.HeartbeatTimeout',
  Runtime: 'States.Runtime',
  DataLimitExceeded: 'States.DataLimitExceeded',
  IntrinsicFailure: 'States.IntrinsicFailure',
  NoChoiceMatched: 'States.NoChoiceMatched',
  BranchFailed: 'States.BranchFailed',
} as const;

/** An error with an ASL name, thrown inside the engine and turned into history + Retry/Catch handling. */
export class AslError extends Error {
  constructor(
    public error: string,
    public override cause: string,
  ) {
    super(`${error}: ${cause}`);
  }
}

export const runtimeError = (cause: string) => new AslError(E.Runtime, cause);
export const intrinsicError = (cause: string) => new AslError(E.IntrinsicFailure, cause);

/** Terminal errors: `States.ALL` (and `States.TaskFailed`) never match them, Retry/Catch cannot handle them. */
export function isTerminalError(name: string): boolean {
  return name === E.Runtime || name === E.DataLimitExceeded;
}

/** Does a Retrier's/Catcher's ErrorEquals list match this error name? */
export function errorMatches(errorEquals: readonly string[], name: string): boolean {
  if (isTerminalError(name)) return false;
  for (const candidate of errorEquals) {
    if (candidate === name || candidate === E.ALL) return true;
    // A missed heartbeat is a kind of timeout: States.Timeout matches it, States.TaskFailed does not.
    if (candidate === E.Timeout && name === E.HeartbeatTimeout) return true;
    if (candidate === E.TaskFailed && name !== E.Timeout && name !== E.HeartbeatTimeout) return true;
  }
  return false;
}

/**
 * Cut long or hostile strings before they land in history/error fields: at most `max` characters (the ellipsis
 * included: `error` columns hold 256), NUL characters replaced (PostgreSQL text cannot hold U+0000).
 */
export function clip(s: string, max = 32_768): string {
  const clean = s.includes('\u0000') ? s.replace(/\u0000/g, '\ufffd') : s;
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

export const MAX_PAYLOAD = 262_144; // 256 KiB

/** UTF-8 size of a string without allocating when it obviously fits. */
export function tooBig(s: string): boolean {
  if (s.length * 3 <= MAX_PAYLOAD) return false;
  if (s.length > MAX_PAYLOAD) return true;
  return Buffer.byteLength(s, 'utf8') > MAX_PAYLOAD;
}
