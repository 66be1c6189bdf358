import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WorkflowDefinitionEntity } from './workflow-definition.entity';

/**
 * A published version of a workflow definition (a Step Functions state machine version): an immutable snapshot
 * of its text, role and logging configuration, numbered 1, 2, … per definition (numbers are never reused: the definition keeps the
 * last one given). Jobs can start from it by its ARN (`<definition ARN>:<number>`), directly or through an alias.
 */
@Entity('workflow_definition_versions')
@Index('UQ_workflow_definition_versions_number', ['definitionId', 'number'], { unique: true })
export class WorkflowDefinitionVersionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'definition_id', type: 'integer' })
  definitionId: number;

  @ManyToOne(() => WorkflowDefinitionEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'definition_id' })
  definitionRow?: WorkflowDefinitionEntity;

  @Column({ type: 'integer' })
  number: number;

  @Index('UQ_workflow_definition_versions_arn', { unique: true })
  @Column({ type: 'varchar', length: 256 })
  arn: string;

  @Column({ type: 'text' })
  definition: string;

  @Column({ name: 'role_arn', type: 'varchar', length: 256 })
  roleArn: string;

  /** The definition's loggingConfiguration when published (part of a revision, as in Step Functions). */
  @Column({ name: 'logging_configuration', type: 'text', nullable: true })
  loggingConfiguration: string | null;

  /** The definition's revision this version snapshots (publishing it again is idempotent). */
  @Column({ name: 'revision_id', type: 'varchar', length: 64 })
  revisionId: string;

  @Column({ type: 'varchar', length: 256, nullable: true })
  description: string | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}
