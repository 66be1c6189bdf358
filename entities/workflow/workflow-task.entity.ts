import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WorkflowJobEntity } from './workflow-job.entity';

export const WORKFLOW_TASK_KINDS = ['activity', 'callback'] as const;
export type WorkflowTaskKind = (typeof WORKFLOW_TASK_KINDS)[number];
export const WORKFLOW_TASK_STATUSES = ['SCHEDULED', 'STARTED', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED'] as const;
export type WorkflowTaskStatus = (typeof WORKFLOW_TASK_STATUSES)[number];

/**
 * A task of a job that waits for someone outside the runner: an activity task (handed to one worker by
 * GetActivityTask) or a callback (`.waitForTaskToken`). One row per attempt of a Task state (`taskKey`, unique:
 * scheduling again after a crash finds the row). The row is the truth about the attempt's outcome: it is closed
 * (SUCCEEDED, FAILED, TIMED_OUT, ABORTED) exactly once by a conditional UPDATE, whoever comes first — a worker's
 * SendTask*, the runner's timeout, a stop. The runner reads the outcome into the job's history.
 * The task token is never stored: only its SHA-256 (`tokenHash`).
 */
@Entity('workflow_tasks')
@Index('UQ_workflow_tasks_key', ['jobId', 'taskKey'], { unique: true })
// GetActivityTask: the oldest SCHEDULED task of an activity.
@Index('IDX_workflow_tasks_activity_status', ['activityId', 'status', 'id'])
// Pending tasks of a job (GraphQL), and closing a job's open tasks when it ends.
@Index('IDX_workflow_tasks_job_status', ['jobId', 'status'])
export class WorkflowTaskEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'job_id', type: 'integer' })
  jobId: number;

  @ManyToOne(() => WorkflowJobEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'job_id' })
  job?: WorkflowJobEntity;

  /** SHA-256 (hex) of the engine's attempt key: one row per attempt of a Task state. */
  @Column({ name: 'task_key', type: 'varchar', length: 64 })
  taskKey: string;

  @Column({ type: 'varchar', length: 16 })
  kind: WorkflowTaskKind;

  /** The activity (kind 'activity'); no foreign key: a deleted activity's tasks time out as in Step Functions. */
  @Column({ name: 'activity_id', type: 'integer', nullable: true })
  activityId: number | null;

  /** The Task state's Resource (an activity ARN, or `arn:aws:states:::<task>.waitForTaskToken`). */
  @Column({ type: 'varchar', length: 256 })
  resource: string;

  @Column({ name: 'state_name', type: 'varchar', length: 80 })
  stateName: string;

  @Column({ type: 'varchar', length: 16 })
  status: WorkflowTaskStatus;

  /** SHA-256 (hex) of the task token; set when a worker takes an activity task, at scheduling for callbacks. */
  @Index('UQ_workflow_tasks_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64, nullable: true })
  tokenHash: string | null;

  /** The task's input (JSON text, at most 256 KiB). */
  @Column({ type: 'text' })
  input: string;

  @Column({ type: 'text', nullable: true })
  output: string | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  error: string | null;

  @Column({ type: 'text', nullable: true })
  cause: string | null;

  @Column({ name: 'worker_name', type: 'varchar', length: 80, nullable: true })
  workerName: string | null;

  @Column({ name: 'scheduled_at', type: Date })
  scheduledAt: Date;

  @Column({ name: 'started_at', type: Date, nullable: true })
  startedAt: Date | null;

  @Column({ name: 'heartbeat_seconds', type: 'integer', nullable: true })
  heartbeatSeconds: number | null;

  /** A worker (or the callback's receiver) must heartbeat or finish before this; null = no heartbeat needed. */
  @Column({ name: 'heartbeat_until', type: Date, nullable: true })
  heartbeatUntil: Date | null;

  /** The task's TimeoutSeconds (or the job's deadline) as an absolute time; null = none. */
  @Column({ name: 'timeout_at', type: Date, nullable: true })
  timeoutAt: Date | null;

  @Column({ name: 'closed_at', type: Date, nullable: true })
  closedAt: Date | null;
}
