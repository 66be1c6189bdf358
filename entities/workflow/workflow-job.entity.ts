import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from '../identity/account.entity';
import { WorkflowDefinitionEntity } from './workflow-definition.entity';

export const WORKFLOW_JOB_STATUSES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED'] as const;
export type WorkflowJobStatus = (typeof WORKFLOW_JOB_STATUSES)[number];

/**
 * A workflow job (a Step Functions execution) of a definition. The definition text is snapshotted at start
 * (updates of the definition do not change running jobs). The runner advances `checkpoint` (the engine's state,
 * NULL until the first transition) with writes conditional on `version`, which every write of a job bumps.
 * `lease*` say which runner works on it; `wakeAt` is when a waiting job is due again; `deadline` its TimeoutSeconds.
 */
@Entity('workflow_jobs')
@Index('UQ_workflow_jobs_definition_name', ['definitionId', 'name'], { unique: true })
// ListExecutions of one definition, newest first, with and without a status filter (keyset on start_date, id).
@Index('IDX_workflow_jobs_def_status_start', ['definitionId', 'status', 'startDate', 'id'])
@Index('IDX_workflow_jobs_def_start', ['definitionId', 'startDate', 'id'])
// ListExecutions of a version or an alias.
@Index('IDX_workflow_jobs_version_start', ['versionArn', 'startDate', 'id'])
@Index('IDX_workflow_jobs_alias_start', ['aliasArn', 'startDate', 'id'])
// Lists over all definitions (GraphQL), by status, and a user's own jobs.
@Index('IDX_workflow_jobs_status_start', ['status', 'startDate', 'id'])
@Index('IDX_workflow_jobs_started_by_start', ['startedBy', 'startDate', 'id'])
// The runner's "due jobs" query: RUNNING jobs whose wake time has come.
@Index('IDX_workflow_jobs_status_wake', ['status', 'wakeAt'])
// A Map Run's children in item order (results, ListExecutions with mapRunArn).
@Index('IDX_workflow_jobs_map_run_item', ['mapRunId', 'itemIndex'])
export class WorkflowJobEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('UQ_workflow_jobs_arn', { unique: true })
  @Column({ type: 'varchar', length: 256 })
  arn: string;

  @Column({ name: 'definition_id', type: 'integer' })
  definitionId: number;

  @ManyToOne(() => WorkflowDefinitionEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'definition_id' })
  definitionRow?: WorkflowDefinitionEntity;

  /** Unique per definition (the execution name). */
  @Column({ type: 'varchar', length: 80 })
  name: string;

  @Column({ type: 'varchar', length: 16, default: 'RUNNING' })
  status: WorkflowJobStatus;

  /** The job's input JSON text (at most 256 KiB). */
  @Column({ type: 'text' })
  input: string;

  @Column({ type: 'text', nullable: true })
  output: string | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  error: string | null;

  @Column({ type: 'text', nullable: true })
  cause: string | null;

  @Column({ name: 'start_date', type: Date })
  startDate: Date;

  @Column({ name: 'stop_date', type: Date, nullable: true })
  stopDate: Date | null;

  @Column({ name: 'started_by', type: 'integer', nullable: true })
  startedBy: number | null;

  @ManyToOne(() => AccountEntity, { onDelete: 'SET NULL', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'started_by' })
  starter?: AccountEntity;

  /**
   * The credential the job was started with, without secrets (JSON: `{"type":"classic","tokenId":5}`,
   * `{"type":"fine_grained","tokenId":7}`, `{"type":"access_key","accessKeyId":"…"}`, `{"type":"internal"}`).
   * Its tasks act with that credential's limits, checked again when they run (a revoked token stops them).
   * NULL on jobs started before it was recorded: their tasks get the starter's roles and nothing more.
   */
  @Column({ name: 'started_credential', type: 'varchar', length: 200, nullable: true })
  startedCredential: string | null;

  /** The definition's role ARN when the job started (`$$.Execution.RoleArn`). */
  @Column({ name: 'role_arn', type: 'varchar', length: 256, nullable: true })
  roleArn: string | null;

  /** The version the job was started from (by its ARN or through an alias); null = the definition's latest revision. */
  @Column({ name: 'version_arn', type: 'varchar', length: 256, nullable: true })
  versionArn: string | null;

  /** The alias the job was started through; null = none. */
  @Column({ name: 'alias_arn', type: 'varchar', length: 256, nullable: true })
  aliasArn: string | null;

  /** The definition's revision the job runs (DescribeStateMachineForExecution). */
  @Column({ name: 'revision_id', type: 'varchar', length: 64, nullable: true })
  revisionId: string | null;

  /** When that revision was written (the definition's update date, or the version's creation). */
  @Column({ name: 'revision_date', type: Date, nullable: true })
  revisionDate: Date | null;

  /** The definition text as it was when the job started (what the runner interprets). */
  @Column({ name: 'definition_text', type: 'text' })
  definitionText: string;

  @Column({ name: 'trace_header', type: 'varchar', length: 256, nullable: true })
  traceHeader: string | null;

  /** The state the job is in (null before the first transition and after it ended). */
  @Column({ name: 'current_state', type: 'varchar', length: 80, nullable: true })
  currentState: string | null;

  /** The engine's checkpoint (JSON); NULL until the runner's first transition. */
  @Column({ type: 'text', nullable: true })
  checkpoint: string | null;

  /** Bumped by every write of the job; the runner's writes are conditional on it. */
  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_until', type: Date, nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'wake_at', type: Date, nullable: true })
  wakeAt: Date | null;

  /** When the job times out (the definition's TimeoutSeconds from its start); null = never. */
  @Column({ type: Date, nullable: true })
  deadline: Date | null;

  /** How many times RedriveExecution resumed the job (`$$.Execution.RedriveCount`). */
  @Column({ name: 'redrive_count', type: 'integer', default: 0 })
  redriveCount: number;

  /** A child execution of a Distributed Map: its Map Run (null for jobs started by StartExecution). */
  @Column({ name: 'map_run_id', type: 'integer', nullable: true })
  mapRunId: number | null;

  /** A Map Run child: its index among the run's children, and how many items its input carries. */
  @Column({ name: 'item_index', type: 'integer', nullable: true })
  itemIndex: number | null;

  @Column({ name: 'item_count', type: 'integer', nullable: true })
  itemCount: number | null;

  /** When the job was last redriven; null = never. */
  @Column({ name: 'redrive_date', type: Date, nullable: true })
  redriveDate: Date | null;
}
