import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A workflow activity (a Step Functions activity): a named queue of work that a Task state whose `Resource` is
 * the activity's ARN schedules, and that workers take with GetActivityTask. Shared by every workflow user of the
 * gateway, like definitions. Its tasks are rows of `workflow_tasks`.
 */
@Entity('workflow_activities')
export class WorkflowActivityEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('UQ_workflow_activities_arn', { unique: true })
  @Column({ type: 'varchar', length: 256 })
  arn: string;

  /** Unique: ListActivities pages by name. */
  @Index('UQ_workflow_activities_name', { unique: true })
  @Column({ type: 'varchar', length: 80 })
  name: string;

  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy: number | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}
