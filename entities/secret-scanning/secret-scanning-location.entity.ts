import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { SecretScanningAlertEntity } from './secret-scanning-alert.entity';

export const LOCATION_TYPES = [
  'commit',
  'wiki_commit',
  'issue_title',
  'issue_body',
  'issue_comment',
  'discussion_title',
  'discussion_body',
  'discussion_comment',
  'pull_request_title',
  'pull_request_body',
  'pull_request_comment',
  'pull_request_review',
  'pull_request_review_comment',
] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];
/** The location types whose details are a URL (issues, discussions, pull requests): all but the commit forms. */
export const URL_LOCATION_TYPES = LOCATION_TYPES.filter((t) => t !== 'commit' && t !== 'wiki_commit');

/**
 * A place a secret was found. Commit-like locations (commit, wiki_commit) carry path, blob, commit and
 * line/column range; the other types carry the URL of the issue, discussion or pull request item.
 */
@Entity('secret_scanning_locations')
@Index('IDX_ss_locations_alert', ['alertId', 'id'])
@Index('UQ_ss_locations_place', ['alertId', 'placeKey'], { unique: true })
export class SecretScanningLocationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'alert_id', type: 'integer' })
  alertId: number;

  @ManyToOne(() => SecretScanningAlertEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'alert_id' })
  alert?: SecretScanningAlertEntity;

  @Column({ type: 'varchar', length: 40 })
  type: LocationType;

  /** Identifies the place (type + commit + path + range, or type + url) so a rescan adds no duplicate. */
  @Column({ name: 'place_key', type: 'varchar', length: 64 })
  placeKey: string;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  path: string | null;

  @Column({ name: 'start_line', type: 'integer', nullable: true })
  startLine: number | null;

  @Column({ name: 'end_line', type: 'integer', nullable: true })
  endLine: number | null;

  @Column({ name: 'start_column', type: 'integer', nullable: true })
  startColumn: number | null;

  @Column({ name: 'end_column', type: 'integer', nullable: true })
  endColumn: number | null;

  @Column({ name: 'blob_sha', type: 'varchar', length: 64, nullable: true })
  blobSha: string | null;

  @Column({ name: 'commit_sha', type: 'varchar', length: 64, nullable: true })
  commitSha: string | null;

  /** For non-commit types: the URL of the item (issue, comment, discussion, pull request...). */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  url: string | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
