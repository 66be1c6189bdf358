import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const SCAN_KINDS = ['incremental', 'backfill', 'pattern_update', 'custom_pattern_backfill', 'generic_secrets_backfill'] as const;
export type ScanKind = (typeof SCAN_KINDS)[number];

/** One scan run of a repository (scan history, endpoint 7). */
@Entity('secret_scanning_scans')
@Index('IDX_ss_scans_repo_kind', ['repositoryId', 'kind', 'id'])
export class SecretScanningScanEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'repository_id', type: 'integer' })
  repositoryId: number;

  @Column({ type: 'varchar', length: 32 })
  kind: ScanKind;

  /** What was scanned: git, issue, discussion, ... */
  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ type: 'varchar', length: 16 })
  status: 'in_progress' | 'completed' | 'failed';

  @Column({ name: 'started_at', type: Date, nullable: true })
  startedAt: Date | null;

  @Column({ name: 'completed_at', type: Date, nullable: true })
  completedAt: Date | null;

  @Column({ name: 'pattern_slug', type: 'varchar', length: 100, nullable: true })
  patternSlug: string | null;

  @Column({ name: 'pattern_scope', type: 'varchar', length: 32, nullable: true })
  patternScope: string | null;

  /** Alerts (new or with new locations) this scan produced. */
  @Column({ name: 'alerts_found', type: 'integer', default: 0 })
  alertsFound: number;

  /**
   * SHA-256 (hex) of the workflow attempt key that started this scan (secret-scanning.startScan), so a job step run
   * again after a crash finds its scan instead of starting another. Null for scans started otherwise.
   */
  @Index('UQ_ss_scans_attempt_key', { unique: true })
  @Column({ name: 'attempt_key_hash', type: 'varchar', length: 64, nullable: true })
  attemptKeyHash: string | null;
}
