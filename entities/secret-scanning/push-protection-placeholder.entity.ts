import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A secret a push-protected push was blocked on. Bound to the pusher, the secret and the repository;
 * the pusher may bypass it (endpoint 6) until it expires. After a bypass, the same secret pushed again by
 * the same user is allowed until `bypassExpireAt`.
 */
@Entity('push_protection_placeholders')
@Index('IDX_pp_placeholders_repo_secret', ['repositoryId', 'secretHash'])
export class PushProtectionPlaceholderEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** The opaque id returned to the pusher and sent back in the bypass request. */
  @Index('UQ_pp_placeholders_placeholder_id', { unique: true })
  @Column({ name: 'placeholder_id', type: 'varchar', length: 40 })
  placeholderId: string;

  @Column({ name: 'repository_id', type: 'integer' })
  repositoryId: number;

  @Column({ name: 'pusher_id', type: 'integer' })
  pusherId: number;

  @Column({ name: 'secret_hash', type: 'varchar', length: 64 })
  secretHash: string;

  @Column({ name: 'secret_type', type: 'varchar', length: 100 })
  secretType: string;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  path: string | null;

  @Column({ name: 'commit_sha', type: 'varchar', length: 64, nullable: true })
  commitSha: string | null;

  @Column({ name: 'start_line', type: 'integer', nullable: true })
  startLine: number | null;

  @Column({ name: 'end_line', type: 'integer', nullable: true })
  endLine: number | null;

  @Column({ name: 'start_column', type: 'integer', nullable: true })
  startColumn: number | null;

  @Column({ name: 'end_column', type: 'integer', nullable: true })
  endColumn: number | null;

  /** Until when the placeholder may be used for a bypass. */
  @Column({ name: 'expire_at', type: Date })
  expireAt: Date;

  @Column({ name: 'bypass_reason', type: 'varchar', length: 32, nullable: true })
  bypassReason: 'false_positive' | 'used_in_tests' | 'will_fix_later' | null;

  @Column({ name: 'bypassed_at', type: Date, nullable: true })
  bypassedAt: Date | null;

  /** Until when the bypassed secret may be pushed. */
  @Column({ name: 'bypass_expire_at', type: Date, nullable: true })
  bypassExpireAt: Date | null;

  /** Set when a push used the bypass and created the alert. */
  @Column({ name: 'alert_id', type: 'integer', nullable: true })
  alertId: number | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
