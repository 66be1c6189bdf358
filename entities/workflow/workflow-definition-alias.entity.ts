import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WorkflowDefinitionEntity } from './workflow-definition.entity';

/** One entry of an alias's routing: a version of the alias's definition and the percentage of starts it gets. */
export interface AliasRoute {
  stateMachineVersionArn: string;
  weight: number;
}

/**
 * An alias of a workflow definition (a Step Functions state machine alias): a name (`<definition ARN>:<alias>`)
 * that routes job starts to one or two of its versions by weight.
 */
@Entity('workflow_definition_aliases')
@Index('UQ_workflow_definition_aliases_name', ['definitionId', 'name'], { unique: true })
export class WorkflowDefinitionAliasEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'definition_id', type: 'integer' })
  definitionId: number;

  @ManyToOne(() => WorkflowDefinitionEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'definition_id' })
  definitionRow?: WorkflowDefinitionEntity;

  @Column({ type: 'varchar', length: 80 })
  name: string;

  @Index('UQ_workflow_definition_aliases_arn', { unique: true })
  @Column({ type: 'varchar', length: 256 })
  arn: string;

  @Column({ type: 'varchar', length: 256, nullable: true })
  description: string | null;

  /** JSON: AliasRoute[] (one or two entries, weights summing to 100). */
  @Column({ type: 'text' })
  routing: string;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
