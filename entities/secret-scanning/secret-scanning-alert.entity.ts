import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { SecretScanningLocationEntity } from './secret-scanning-location.entity';
import { AccountEntity } from '../identity/account.entity';
import { RepositoryEntity } from '../identity/repository.entity';

export const ALERT_STATES = ['open', 'resolved'] as const;
export type AlertState = (typeof ALERT_STATES)[number];
export const ALERT_RESOLUTIONS = ['false_positive', 'wont_fix', 'revoked', 'used_in_tests'] as const;
export type AlertResolution = (typeof ALERT_RESOLUTIONS)[number];
/** Resolutions the list filter accepts (GitHub's filter also names two webhook-only values). */
export const ALERT_RESOLUTION_FILTERS = [...ALERT_RESOLUTIONS, 'pattern_edited', 'pattern_deleted'] as const;
export const ALERT_VALIDITIES = ['active', 'inactive', 'unknown'] as const;
export type AlertValidity = (typeof ALERT_VALIDITIES)[number];

/**
 * One secret in one repository, numbered per repository (1, 2, 3..., never reused). Every place the secret
 * was found is a SecretScanningLocationEntity. `ownerId` copies the repository owner so organization lists
 * filter and sort on one index.
 */
@Entity('secret_scanning_alerts')
@Index('UQ_ss_alerts_repo_number', ['repositoryId', 'number'], { unique: true })
@Index('UQ_ss_alerts_repo_secret', ['repositoryId', 'secretHash'], { unique: true })
@Index('IDX_ss_alerts_repo_created', ['repositoryId', 'createdAt', 'id'])
@Index('IDX_ss_alerts_repo_updated', ['repositoryId', 'updatedAt', 'id'])
@Index('IDX_ss_alerts_owner_created', ['ownerId', 'createdAt', 'id'])
@Index('IDX_ss_alerts_owner_updated', ['ownerId', 'updatedAt', 'id'])
@Index('IDX_ss_alerts_owner_state_created', ['ownerId', 'state', 'createdAt', 'id'])
@Index('IDX_ss_alerts_repo_state_created', ['repositoryId', 'state', 'createdAt', 'id'])
@Index('IDX_ss_alerts_owner_secret', ['ownerId', 'secretHash'])
@Index('IDX_ss_alerts_owner_repo', ['ownerId', 'repositoryId'])
export class SecretScanningAlertEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'repository_id', type: 'integer' })
  repositoryId: number;

  @ManyToOne(() => RepositoryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'repository_id' })
  repository?: RepositoryEntity;

  @Column({ name: 'owner_id', type: 'integer' })
  ownerId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id' })
  owner?: AccountEntity;

  @Column({ type: 'integer' })
  number: number;

  @Column({ type: 'varchar', length: 16, default: 'open' })
  state: AlertState;

  @Index('IDX_ss_alerts_resolution')
  @Column({ type: 'varchar', length: 32, nullable: true })
  resolution: AlertResolution | null;

  @Column({ name: 'resolved_at', type: Date, nullable: true })
  resolvedAt: Date | null;

  @Column({ name: 'resolved_by_id', type: 'integer', nullable: true })
  resolvedById: number | null;

  /**
   * The related rows below are never loaded by TypeORM here (no eager relation, no foreign key constraint): an alert
   * list that reads a few of their columns with the alert sets them (partial rows; null when the alert has none),
   * as `find({ relations, select })` would. Everything else reads them through the request's loaders by id.
   */
  @ManyToOne(() => AccountEntity, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'resolved_by_id' })
  resolvedBy?: AccountEntity | null;

  @Column({ name: 'resolution_comment', type: 'varchar', length: 280, nullable: true })
  resolutionComment: string | null;

  @Index('IDX_ss_alerts_secret_type')
  @Column({ name: 'secret_type', type: 'varchar', length: 100 })
  secretType: string;

  @Column({ name: 'secret_type_display_name', type: 'varchar', length: 200 })
  secretTypeDisplayName: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  provider: string | null;

  @Index('IDX_ss_alerts_provider_slug')
  @Column({ name: 'provider_slug', type: 'varchar', length: 100, nullable: true })
  providerSlug: string | null;

  /** The literal secret. */
  @Column({ type: 'text' })
  secret: string;

  /** hex SHA-256 of the secret: finds the same secret across pushes and repositories. */
  @Column({ name: 'secret_hash', type: 'varchar', length: 64 })
  secretHash: string;

  @Index('IDX_ss_alerts_validity')
  @Column({ type: 'varchar', length: 16, default: 'unknown' })
  validity: AlertValidity;

  @Index('IDX_ss_alerts_publicly_leaked')
  @Column({ name: 'publicly_leaked', type: 'boolean', default: false })
  publiclyLeaked: boolean;

  @Index('IDX_ss_alerts_multi_repo')
  @Column({ name: 'multi_repo', type: 'boolean', default: false })
  multiRepo: boolean;

  @Column({ name: 'is_base64_encoded', type: 'boolean', default: false })
  isBase64Encoded: boolean;

  @Index('IDX_ss_alerts_bypassed')
  @Column({ name: 'push_protection_bypassed', type: 'boolean', default: false })
  pushProtectionBypassed: boolean;

  @Column({ name: 'push_protection_bypassed_by_id', type: 'integer', nullable: true })
  pushProtectionBypassedById: number | null;

  @ManyToOne(() => AccountEntity, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'push_protection_bypassed_by_id' })
  pushProtectionBypassedBy?: AccountEntity | null;

  @Column({ name: 'push_protection_bypassed_at', type: Date, nullable: true })
  pushProtectionBypassedAt: Date | null;

  @Index('IDX_ss_alerts_assignee')
  @Column({ name: 'assigned_to_id', type: 'integer', nullable: true })
  assignedToId: number | null;

  @ManyToOne(() => AccountEntity, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'assigned_to_id' })
  assignedTo?: AccountEntity | null;

  /** The first location found (for first_location_detected without a join per row). */
  @Column({ name: 'first_location_id', type: 'integer', nullable: true })
  firstLocationId: number | null;

  @ManyToOne('SecretScanningLocationEntity', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'first_location_id' })
  firstLocation?: SecretScanningLocationEntity | null;

  @Column({ name: 'locations_count', type: 'integer', default: 0 })
  locationsCount: number;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;

  /** When the alert was last updated or resolved (sort=updated). Set by the service. */
  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
