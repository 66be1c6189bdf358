import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A tag of a workflow resource (a state machine or an activity), keyed by the resource's ARN: tags go with the
 * resource when it is deleted (the services delete them in the same transaction).
 */
@Entity('workflow_tags')
@Index('UQ_workflow_tags_resource_key', ['resourceArn', 'key'], { unique: true })
export class WorkflowTagEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'resource_arn', type: 'varchar', length: 256 })
  resourceArn: string;

  @Column({ type: 'varchar', length: 128 })
  key: string;

  @Column({ type: 'varchar', length: 256 })
  value: string;
}
