import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from '../identity/account.entity';

export const WORKFLOW_DEFINITION_STATUSES = ['ACTIVE', 'DELETING'] as const;
export type WorkflowDefinitionStatus = (typeof WORKFLOW_DEFINITION_STATUSES)[number];

/**
 * A workflow definition (a Step Functions state machine): an Amazon States Language document under a name that
 * is unique in the gateway (one AWS "account"). Shared by every workflow user; jobs snapshot its text at start.
 * A definition deleted while jobs run stays DELETING until they end, then its row (and its jobs) go.
 */
@Entity('workflow_definitions')
export class WorkflowDefinitionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('UQ_workflow_definitions_arn', { unique: true })
  @Column({ type: 'varchar', length: 256 })
  arn: string;

  /** Unique: ListStateMachines pages by name (keyset over this index). */
  @Index('UQ_workflow_definitions_name', { unique: true })
  @Column({ type: 'varchar', length: 80 })
  name: string;

  /** The Amazon States Language document as the client sent it. */
  @Column({ type: 'text' })
  definition: string;

  @Column({ name: 'role_arn', type: 'varchar', length: 256 })
  roleArn: string;

  @Column({ type: 'varchar', length: 16, default: 'STANDARD' })
  type: 'STANDARD' | 'EXPRESS';

  @Column({ type: 'varchar', length: 16, default: 'ACTIVE' })
  status: WorkflowDefinitionStatus;

  @Index('IDX_workflow_definitions_created_by')
  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy: number | null;

  @ManyToOne(() => AccountEntity, { onDelete: 'SET NULL', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'created_by' })
  creator?: AccountEntity;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;

  /** Changes with every update of the definition, role or logging configuration (UpdateStateMachine's revisionId). */
  @Column({ name: 'revision_id', type: 'varchar', length: 64 })
  revisionId: string;

  /**
   * Step Functions' loggingConfiguration as given (checked; JSON: level, includeExecutionData, destinations); null:
   * never set (level OFF). Stored and answered; no log is written to CloudWatch from here.
   */
  @Column({ name: 'logging_configuration', type: 'text', nullable: true })
  loggingConfiguration: string | null;

  /** The number of the last version published (versions are numbered 1, 2, … and numbers are never reused). */
  @Column({ name: 'last_version', type: 'integer', default: 0 })
  lastVersion: number;
}
