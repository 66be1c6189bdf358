/**
 * RedriveExecution: the checkpoint a failed, timed-out or stopped job resumes from. What succeeded stays (finished
 * Parallel branches and Map iterations keep their results, also in a Parallel/Map that failed: only its failed and
 * aborted branches / iterations run again; states already passed are not run again); every thread
 * that failed or was cut short enters its state again with the input it had (a new visit: new attempt keys, a new
 * task token), a Wait that was waiting waits on. The job deadline starts again from the redrive.
 */
import { machineOf } from './compile';
import type { AslDefinition, Checkpoint, Thread } from './types';

/** Can this stored checkpoint be redriven (a job that ended inside the engine keeps its threads only since redrive)? */
export function redrivable(cp: Checkpoint | null, status: string): boolean {
  if (!cp || !cp.root) return false;
  if (status === 'ABORTED') return !cp.st;
  return cp.rv === 1;
}

function reset(th: Thread): void {
  if (th.p === 'F' && th.rk) {
    // A Parallel/Map that failed for good: its succeeded branches / iterations are kept (with their results), the
    // failed and aborted ones run again, a Map's iterations not started yet start (Step Functions' inline redrive).
    const keep = th.rk;
    delete th.rk;
    delete th.e;
    delete th.c;
    for (const [k, v] of Object.entries(keep)) if (v !== undefined && k !== 'p') (th as unknown as Record<string, unknown>)[k] = v;
    th.p = keep.p;
    for (const k of th.kd ?? []) reset(k);
    return;
  }
  switch (th.p) {
    case 'F':
    case 'T':
    case 'X':
    case 'R':
      th.p = 'E';
      delete th.e;
      delete th.c;
      for (const f of ['a', 'rc', 'ti', 'dl', 'ts', 'u', 'tk', 'hs', 'hb', 'sd', 'et'] as const) delete (th as unknown as Record<string, unknown>)[f];
      if (th.kd && th.p === 'E') delete th.kd;
      return;
    case 'P':
    case 'M':
      // A Distributed Map cut short (the job stopped or timed out): its run is redriven with it.
      if (th.mr) th.rd = 1;
      for (const k of th.kd ?? []) reset(k);
      return;
    default:
      return;
  }
}

/**
 * The checkpoint to resume from, with the ExecutionRedriven event (id `eventId`) as the last event of the threads
 * that go on. `cp` is not changed.
 */
export function redriveCheckpoint(
  definition: AslDefinition | string,
  cp: Checkpoint,
  opts: { now: Date; redriveCount: number; /** the id after the job's last stored event (a stop writes one outside the engine) */ nextEventId: number },
): { checkpoint: Checkpoint; eventId: number } {
  const copy = JSON.parse(JSON.stringify(cp)) as Checkpoint;
  delete copy.st;
  delete copy.out;
  delete copy.err;
  delete copy.cau;
  delete copy.rv;
  reset(copy.root);
  const eventId = Math.max(copy.nid, opts.nextEventId);
  copy.nid = eventId + 1;
  copy.root.l = eventId;
  copy.ctx = { ...copy.ctx, redriveCount: opts.redriveCount, redriveTime: opts.now.toISOString() };
  const m = machineOf(definition);
  copy.dl = m.timeoutSeconds ? new Date(opts.now.getTime() + m.timeoutSeconds * 1000).toISOString() : null;
  return { checkpoint: copy, eventId };
}
