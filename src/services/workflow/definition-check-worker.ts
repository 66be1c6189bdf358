/**
 * Definition checking in a worker thread (./definition-check-pool): asl-validator takes ~0.5 s on a 1 MiB
 * definition, which must not hold the event loop. Loaded as compiled JavaScript from dist/ (also under jest, whose
 * global setup builds dist/).
 */
import { ValidationError } from '../../errors/app-error';
import { checkDefinition, diagnoseDefinition, type CheckedDefinition, type CheckOptions, type Diagnosis } from './definition-check';

export default function checkInWorker({ text, opts }: { text: string; opts: CheckOptions }): { ok: CheckedDefinition } | { invalid: string } {
  try {
    return { ok: checkDefinition(text, opts) };
  } catch (e) {
    if (e instanceof ValidationError) return { invalid: e.message };
    throw e;
  }
}

/** ValidateStateMachineDefinition's check: every diagnostic, nothing thrown. */
export function diagnose({ text, opts }: { text: string; opts: CheckOptions }): Diagnosis {
  return diagnoseDefinition(text, opts);
}
