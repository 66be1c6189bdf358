/** Test helpers for the workflow engine: a fake clock and runToEnd (advance until terminal, jumping to wakeAt). */
import {
  advance,
  decodeCheckpoint,
  encodeCheckpoint,
  initialCheckpoint,
  type Advance,
  type AslDefinition,
  type Checkpoint,
  type HistoryEvent,
  type JobContext,
  type Json,
  type RunTask,
} from '../../../../src/services/workflow/engine';

export const T0 = Date.parse('2024-05-01T10:00:00.000Z');

export const CTX: JobContext = {
  executionArn: 'arn:aws:states:eu-west-1:000000000000:execution:sm:job-1',
  executionName: 'job-1',
  startTime: new Date(T0).toISOString(),
  roleArn: 'arn:aws:iam::000000000000:role/workflow',
  stateMachineArn: 'arn:aws:states:eu-west-1:000000000000:stateMachine:sm',
  stateMachineName: 'sm',
};

export class Clock {
  constructor(public t = T0) {}
  now = (): Date => new Date(this.t);
  /** seconds since T0 */
  get s(): number {
    return (this.t - T0) / 1000;
  }
}

export const noTask: RunTask = async () => {
  throw new Error('no task expected');
};

export interface RunResult {
  status: Advance['status'];
  output?: Json;
  error?: string;
  cause?: string;
  events: HistoryEvent[];
  steps: Advance[];
  clock: Clock;
}

export interface RunOptions {
  clock?: Clock;
  maxSteps?: number;
  /** Stored-text round trip of the checkpoint between advances (as a runner that stores it does). Default true. */
  roundTrip?: boolean;
  /** jump the clock to wakeAt when nothing is runnable (default true) */
  jump?: boolean;
  random?: (key: string) => number;
  ctx?: JobContext;
}

export async function runToEnd(
  definition: AslDefinition | string,
  input: Json,
  runTask: RunTask = noTask,
  o: RunOptions = {},
): Promise<RunResult> {
  const clock = o.clock ?? new Clock();
  let cp: Checkpoint = initialCheckpoint(definition, input, o.ctx ?? CTX, clock.now());
  const events: HistoryEvent[] = [];
  const steps: Advance[] = [];
  for (let i = 0; i < (o.maxSteps ?? 10_000); i++) {
    if (o.roundTrip !== false) cp = decodeCheckpoint(encodeCheckpoint(cp));
    const r = await advance(definition, cp, { now: clock.now, runTask, random: o.random });
    steps.push(r);
    events.push(...r.events);
    cp = r.checkpoint;
    if (r.status !== 'RUNNING') {
      return {
        status: r.status,
        output: r.output === undefined ? undefined : (JSON.parse(r.output) as Json),
        error: r.error,
        cause: r.cause,
        events,
        steps,
        clock,
      };
    }
    if (r.wakeAt && o.jump !== false) clock.t = Math.max(clock.t, Date.parse(r.wakeAt));
  }
  throw new Error('job did not finish');
}

/** A definition with one state (plus End) — shorthand for path-field tests. */
export function single(state: Record<string, unknown>): AslDefinition {
  return { StartAt: 'S', States: { S: { End: true, ...state } } };
}

export const types = (events: HistoryEvent[]) => events.map((e) => e.type);

/** Check the ids are consecutive from 2 and every previousEventId points back. */
export function checkIds(events: HistoryEvent[]): void {
  events.forEach((e, i) => {
    expect(e.id).toBe(i + 2);
    expect(e.previousEventId).toBeLessThan(e.id);
    expect(e.previousEventId).toBeGreaterThanOrEqual(0);
  });
}

export const echo: RunTask = async (t) => t.input;
