/**
 * Workflow answers in Step Functions' shape: member names as the service model spells them (camelCase),
 * timestamps as epoch seconds (a double), absent members omitted (never null).
 */
import type { WorkflowDefinitionEntity, WorkflowJobEntity, WorkflowMapRunEntity } from '../../../entities/workflow';
import { definitionVariableReferences } from '../../services/workflow/definitions.service';
import { loggingOf } from '../../services/workflow/logging-configuration';
import { mapRunCounts } from '../../services/workflow/map-runs';
import type { ExpressResult } from '../../services/workflow/express.service';
import type { JobEvent, WorkflowJobService } from '../../services/workflow/jobs.service';

export const epochSeconds = (d: Date): number => d.getTime() / 1000;

/** Drop undefined and null members (AWS omits what it does not have). */
function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== null) out[k] = v;
  return out as Partial<T>;
}

export function presentDefinition(d: WorkflowDefinitionEntity & { description?: string | null }) {
  return compact({
    stateMachineArn: d.arn,
    name: d.name,
    status: d.status,
    definition: d.definition,
    roleArn: d.roleArn,
    type: d.type,
    creationDate: epochSeconds(d.createdAt),
    revisionId: d.revisionId,
    loggingConfiguration: loggingOf(d.loggingConfiguration),
    tracingConfiguration: { enabled: false },
    description: d.description,
    variableReferences: nonEmpty(definitionVariableReferences(d.definition)),
  });
}

const nonEmpty = <T extends object>(o: T): T | undefined => (Object.keys(o).length ? o : undefined);

/** DescribeStateMachineForExecution. */
export function presentDefinitionForJob(d: Awaited<ReturnType<WorkflowJobService['definitionFor']>>) {
  return compact({
    ...d,
    updateDate: epochSeconds(d.updateDate),
    // Known for the revision the job ran (undefined: a revision replaced since, whose configuration is not kept).
    loggingConfiguration: d.loggingConfiguration === undefined ? undefined : loggingOf(d.loggingConfiguration),
    tracingConfiguration: { enabled: false },
    variableReferences: nonEmpty(d.variableReferences),
  });
}

/** StartSyncExecution's answer (output only when it succeeded; METADATA_ONLY leaves the data out). */
export function presentExpressResult(r: ExpressResult) {
  return compact({
    executionArn: r.executionArn,
    stateMachineArn: r.stateMachineArn,
    name: r.name,
    startDate: epochSeconds(r.startDate),
    stopDate: epochSeconds(r.stopDate),
    status: r.status,
    error: r.error,
    cause: r.cause,
    input: r.includedData ? r.input : undefined,
    inputDetails: { included: r.includedData },
    output: r.includedData ? r.output : undefined,
    outputDetails: r.output !== undefined ? { included: r.includedData } : undefined,
    traceHeader: r.traceHeader,
    billingDetails: r.billingDetails,
  });
}

export function presentDefinitionItem(d: Pick<WorkflowDefinitionEntity, 'arn' | 'name' | 'type' | 'createdAt'>) {
  return { stateMachineArn: d.arn, name: d.name, type: d.type, creationDate: epochSeconds(d.createdAt) };
}

export function presentJob(
  job: WorkflowJobEntity,
  stateMachineArn: string,
  includeData = true,
  redrive?: { redriveStatus: string; redriveStatusReason?: string },
  mapRunArn?: string,
) {
  return compact({
    mapRunArn,
    redriveCount: job.redriveCount ?? 0,
    redriveDate: job.redriveDate ? epochSeconds(job.redriveDate) : undefined,
    redriveStatus: redrive?.redriveStatus,
    redriveStatusReason: redrive?.redriveStatusReason,
    executionArn: job.arn,
    stateMachineArn,
    name: job.name,
    status: job.status,
    startDate: epochSeconds(job.startDate),
    stopDate: job.stopDate ? epochSeconds(job.stopDate) : undefined,
    input: includeData ? job.input : undefined,
    inputDetails: includeData ? { included: true } : { included: false },
    output: includeData ? job.output : undefined,
    outputDetails: job.output === null ? undefined : { included: includeData },
    error: job.error,
    cause: job.cause,
    traceHeader: job.traceHeader,
    stateMachineVersionArn: job.versionArn,
    stateMachineAliasArn: job.aliasArn,
  });
}

export function presentJobItem(job: WorkflowJobEntity, stateMachineArn: string, mapRunArn?: string) {
  return compact({
    mapRunArn,
    itemCount: mapRunArn ? (job.itemCount ?? 1) : undefined,
    redriveCount: job.redriveCount ? job.redriveCount : undefined,
    redriveDate: job.redriveDate ? epochSeconds(job.redriveDate) : undefined,
    executionArn: job.arn,
    stateMachineArn,
    name: job.name,
    status: job.status,
    startDate: epochSeconds(job.startDate),
    stopDate: job.stopDate ? epochSeconds(job.stopDate) : undefined,
    stateMachineVersionArn: job.versionArn,
    stateMachineAliasArn: job.aliasArn,
  });
}

export function presentEvent(e: JobEvent) {
  return { timestamp: epochSeconds(e.timestamp), type: e.type, id: e.id, previousEventId: e.previousEventId, ...e.details };
}

/** ListMapRuns' item: the run, its job and the state machine the job runs (derived from the run's ARN). */
export function presentMapRunItem(r: WorkflowMapRunEntity, executionArn: string) {
  const [prefix, rest] = [r.arn.split(':mapRun:')[0], r.arn.split(':mapRun:')[1] ?? ''];
  return compact({
    executionArn,
    mapRunArn: r.arn,
    stateMachineArn: `${prefix}:stateMachine:${rest.split('/')[0]}`,
    startDate: epochSeconds(r.startDate),
    stopDate: r.stopDate ? epochSeconds(r.stopDate) : undefined,
  });
}

export function presentMapRun(r: WorkflowMapRunEntity, executionArn: string) {
  return compact({
    mapRunArn: r.arn,
    executionArn,
    status: r.status,
    startDate: epochSeconds(r.startDate),
    stopDate: r.stopDate ? epochSeconds(r.stopDate) : undefined,
    maxConcurrency: r.maxConcurrency,
    toleratedFailurePercentage: r.toleratedFailurePercentage ?? 0,
    toleratedFailureCount: r.toleratedFailureCount ?? 0,
    ...mapRunCounts(r),
    redriveCount: r.redriveCount,
    redriveDate: r.redriveDate ? epochSeconds(r.redriveDate) : undefined,
  });
}
