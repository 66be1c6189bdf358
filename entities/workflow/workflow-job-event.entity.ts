import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WorkflowJobEntity } from './workflow-job.entity';

/**
 * One history event of a job (GetExecutionHistory): ids count from 1 per job. `details` is the JSON object of
 * the event's details members as Step Functions names them, e.g.
 * `{"executionStartedEventDetails":{"input":"{}","inputDetails":{"truncated":false},"roleArn":"…"}}`.
 */
@Entity('workflow_job_events')
export class WorkflowJobEventEntity {
  @PrimaryColumn({ name: 'job_id', type: 'integer' })
  jobId: number;

  @PrimaryColumn({ name: 'event_id', type: 'integer' })
  eventId: number;

  @ManyToOne(() => WorkflowJobEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'job_id' })
  job?: WorkflowJobEntity;

  @Column({ name: 'previous_event_id', type: 'integer', default: 0 })
  previousEventId: number;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ type: Date })
  timestamp: Date;

  @Column({ type: 'text', default: '{}' })
  details: string;
}
