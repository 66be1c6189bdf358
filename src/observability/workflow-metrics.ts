/**
 * Workflow metrics on the app's registry: AWS operations by X-Amz-Target (only the operations the route table knows;
 * anything else is `unknown`, so clients cannot grow the label set), job counters of this instance (started,
 * succeeded, failed, timed out, aborted, redriven), Express executions (counted and running), open activity and callback tasks (read from the database when
 * scraped), and GetActivityTask polls parked here.
 */
import { Counter, Gauge, Histogram } from 'prom-client';
import type { AppDeps } from '../context';
import { WORKFLOW_ROUTES, WORKFLOW_TARGET_PREFIX } from '../rest/aws/workflow.routes';
import type { Metrics } from './metrics';

const BUCKETS = [0.001, 0.005, 0.025, 0.1, 0.5, 1, 5, 15, 30, 60];

export interface WorkflowMetrics {
  /** Count one AWS JSON request (its X-Amz-Target header and answer status). */
  awsRequest(target: string | string[] | undefined, status: number, seconds: number): void;
}

export function registerWorkflowMetrics(metrics: Metrics, deps: AppDeps): WorkflowMetrics {
  const known = new Set(WORKFLOW_ROUTES.map((r) => r.operation).filter((o): o is string => typeof o === 'string'));
  const ops = new Counter({
    name: 'workflow_aws_operations_total',
    help: 'Workflow (Step Functions) operations by X-Amz-Target operation and HTTP status.',
    labelNames: ['operation', 'status'],
    registers: [metrics.registry],
  });
  const duration = new Histogram({
    name: 'workflow_aws_operation_duration_seconds',
    help: 'Workflow (Step Functions) operation latency by operation (GetActivityTask long polls included).',
    labelNames: ['operation'],
    buckets: BUCKETS,
    registers: [metrics.registry],
  });
  const stats = deps.services.workflowJobs.stats;
  new Counter({
    name: 'workflow_jobs_total',
    help: 'Workflow jobs of this instance by event: started, succeeded, failed, timed_out, aborted, redriven.',
    labelNames: ['event'],
    registers: [metrics.registry],
    collect() {
      this.reset();
      for (const [event, n] of Object.entries(stats)) this.inc({ event }, n);
    },
  });
  const express = deps.services.workflowExpress;
  new Counter({
    name: 'workflow_express_executions_total',
    help: 'Express executions of this instance by event: started, succeeded, failed, timed_out, aborted (they are stored nowhere).',
    labelNames: ['event'],
    registers: [metrics.registry],
    collect() {
      this.reset();
      for (const [event, n] of Object.entries(express.stats)) this.inc({ event }, n);
    },
  });
  new Gauge({
    name: 'workflow_express_executions_running',
    help: 'Express executions running in this instance now (at most WORKFLOW_EXPRESS_MAX_RUNNING).',
    registers: [metrics.registry],
    collect() {
      this.set(express.runningCount);
    },
  });
  new Gauge({
    name: 'workflow_activity_tasks_open',
    help: 'Activity and callback tasks scheduled or started (waiting for a worker or an answer).',
    registers: [metrics.registry],
    async collect() {
      try {
        this.set(await deps.services.workflowActivities.openTaskCount(deps.dataSource.manager));
      } catch {
        // the database is away: the gauge keeps its last value (/readyz reports the outage)
      }
    },
  });
  new Gauge({
    name: 'workflow_activity_polls_parked',
    help: 'GetActivityTask long polls waiting in this instance.',
    registers: [metrics.registry],
    collect() {
      this.set(deps.services.workflowActivities.polls.parked);
    },
  });
  return {
    awsRequest(target, status, seconds) {
      const t = Array.isArray(target) ? target[0] : target;
      const op = t && known.has(t) ? t.slice(WORKFLOW_TARGET_PREFIX.length + 1) : 'unknown';
      ops.inc({ operation: op, status: String(status) });
      duration.observe({ operation: op }, seconds);
    },
  };
}
