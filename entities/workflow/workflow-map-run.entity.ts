import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WorkflowJobEntity } from './workflow-job.entity';

export const WORKFLOW_MAP_RUN_STATUSES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'ABORTED'] as const;
export type WorkflowMapRunStatus = (typeof WORKFLOW_MAP_RUN_STATUSES)[number];

/**
 * A Map Run: the child executions a Distributed Map state of a job starts (children are workflow_jobs rows with
 * `map_run_id`). The counters are kept in the same transactions as the children's starts and ends, so
 * DescribeMapRun and the parent's decisions read them without counting children. `version` changes with every write
 * (the parent's runner looks for news with it). `key` is the parent thread's attempt key: starting the same Map
 * attempt again (a step redone after a crash) finds this run instead of starting another.
 */
@Entity('workflow_map_runs')
@Index('UQ_workflow_map_runs_job_key', ['jobId', 'key'], { unique: true })
// ListMapRuns of a job, oldest first.
@Index('IDX_workflow_map_runs_job_start', ['jobId', 'startDate', 'id'])
export class WorkflowMapRunEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('UQ_workflow_map_runs_arn', { unique: true })
  @Column({ type: 'varchar', length: 512 })
  arn: string;

  @Column({ name: 'job_id', type: 'integer' })
  jobId: number;

  @ManyToOne(() => WorkflowJobEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'job_id' })
  job?: WorkflowJobEntity;

  @Column({ type: 'varchar', length: 512 })
  key: string;

  @Column({ type: 'varchar', length: 16, default: 'RUNNING' })
  status: WorkflowMapRunStatus;

  /** STANDARD or EXPRESS (ProcessorConfig.ExecutionType). */
  @Column({ name: 'execution_type', type: 'varchar', length: 16 })
  executionType: string;

  /** The children's state machine: the ItemProcessor as a definition of its own. */
  @Column({ name: 'definition_text', type: 'text' })
  definitionText: string;

  @Column({ name: 'start_date', type: Date })
  startDate: Date;

  @Column({ name: 'stop_date', type: Date, nullable: true })
  stopDate: Date | null;

  /** 0 = no limit of its own. UpdateMapRun changes it while the run goes on. */
  @Column({ name: 'max_concurrency', type: 'integer' })
  maxConcurrency: number;

  /** null: not given (neither given: no failure is tolerated). */
  @Column({ name: 'tolerated_failure_percentage', type: 'real', nullable: true })
  toleratedFailurePercentage: number | null;

  @Column({ name: 'tolerated_failure_count', type: 'integer', nullable: true })
  toleratedFailureCount: number | null;

  /** Items and child executions in all. */
  @Column({ name: 'item_total', type: 'integer' })
  itemTotal: number;

  @Column({ name: 'child_total', type: 'integer' })
  childTotal: number;

  /** Children started so far (the next child's index). */
  @Column({ type: 'integer', default: 0 })
  started: number;

  @Column({ type: 'integer', default: 0 })
  running: number;

  @Column({ type: 'integer', default: 0 })
  succeeded: number;

  @Column({ type: 'integer', default: 0 })
  failed: number;

  @Column({ name: 'timed_out', type: 'integer', default: 0 })
  timedOut: number;

  @Column({ type: 'integer', default: 0 })
  aborted: number;

  /** Items started and items of the children that ended, by outcome (a child of a batch carries several). */
  @Column({ name: 'items_started', type: 'integer', default: 0 })
  itemsStarted: number;

  @Column({ name: 'items_running', type: 'integer', default: 0 })
  itemsRunning: number;

  @Column({ name: 'items_succeeded', type: 'integer', default: 0 })
  itemsSucceeded: number;

  @Column({ name: 'items_failed', type: 'integer', default: 0 })
  itemsFailed: number;

  @Column({ name: 'items_timed_out', type: 'integer', default: 0 })
  itemsTimedOut: number;

  @Column({ name: 'items_aborted', type: 'integer', default: 0 })
  itemsAborted: number;

  /**
   * Redrives of the run (with its parent's RedriveExecution): how many, the last one's date, the children started
   * before it (only those can wait to be redriven; later ones are new) and how many children / items still wait.
   */
  @Column({ name: 'redrive_count', type: 'integer', default: 0 })
  redriveCount: number;

  @Column({ name: 'redrive_date', type: Date, nullable: true })
  redriveDate: Date | null;

  @Column({ name: 'redrive_started', type: 'integer', default: 0 })
  redriveStarted: number;

  @Column({ name: 'pending_redrive', type: 'integer', default: 0 })
  pendingRedrive: number;

  @Column({ name: 'items_pending_redrive', type: 'integer', default: 0 })
  itemsPendingRedrive: number;

  @Column({ type: 'varchar', length: 256, nullable: true })
  error: string | null;

  @Column({ type: 'text', nullable: true })
  cause: string | null;

  @Column({ type: 'integer', default: 1 })
  version: number;
}
