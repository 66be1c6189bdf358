import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Content pushed or submitted to a repository, kept so later scans (backfill, pattern updates) can rescan it.
 */
@Entity('secret_scanning_contents')
@Index('IDX_ss_contents_repo', ['repositoryId', 'id'])
export class SecretScanningContentEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'repository_id', type: 'integer' })
  repositoryId: number;

  /** commit, wiki_commit, issue_title, ... (a location type) */
  @Column({ name: 'location_type', type: 'varchar', length: 40 })
  locationType: string;

  @Column({ name: 'commit_sha', type: 'varchar', length: 64, nullable: true })
  commitSha: string | null;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  path: string | null;

  @Column({ name: 'blob_sha', type: 'varchar', length: 64, nullable: true })
  blobSha: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  url: string | null;

  @Column({ name: 'pusher_id', type: 'integer', nullable: true })
  pusherId: number | null;

  @Column({ type: 'text' })
  content: string;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
