import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An asynchronous Express execution (StartExecution of an EXPRESS machine) while it runs: what is needed to run it
 * again from its start (its definition text, role, input and starter), held under a lease by the process running it.
 * Step Functions runs asynchronous Express executions at least once: one whose process dies (its lease runs out)
 * is run again by another process or the next start. The row goes when the execution ends; nothing else of an
 * Express execution is stored (no history, no status).
 */
@Entity('workflow_express_runs')
export class WorkflowExpressRunEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('UQ_workflow_express_runs_arn', { unique: true })
  @Column({ type: 'varchar', length: 512 })
  arn: string;

  @Column({ type: 'varchar', length: 80 })
  name: string;

  @Column({ name: 'definition_name', type: 'varchar', length: 80 })
  definitionName: string;

  /** The text it runs (the definition's, or the version's an alias or version ARN chose). */
  @Column({ name: 'definition_text', type: 'text' })
  definitionText: string;

  @Column({ name: 'role_arn', type: 'varchar', length: 256 })
  roleArn: string;

  @Column({ type: 'text' })
  input: string;

  @Column({ name: 'trace_header', type: 'varchar', length: 256, nullable: true })
  traceHeader: string | null;

  @Column({ name: 'started_by', type: 'integer', nullable: true })
  startedBy: number | null;

  /** The credential that started it (job-credential.ts): its tasks act with it, checked again for every task. */
  @Column({ name: 'started_credential', type: 'varchar', length: 200, nullable: true })
  startedCredential: string | null;

  @Column({ name: 'start_date', type: Date })
  startDate: Date;

  /** The process running it, until `leaseUntil` (renewed while it runs); NULL: nobody (to be run again). */
  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Index('IDX_workflow_express_runs_lease')
  @Column({ name: 'lease_until', type: Date, nullable: true })
  leaseUntil: Date | null;

  /** Runs begun (1 + the times it was run again). */
  @Column({ type: 'integer', default: 1 })
  attempts: number;
}
