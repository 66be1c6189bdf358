import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How many repositories each account owns, kept by database triggers on `repositories` (insert, delete, a change
 * of owner: migration RepositoryTotals), so every way rows get there keeps it exact. A repository list whose
 * viewer sees every repository of the owner takes its total from here instead of counting the owner's
 * repositories on every request. Never written by the application.
 */
@Entity('repository_totals')
export class RepositoryTotalEntity {
  @PrimaryColumn({ name: 'owner_id', type: 'integer' })
  ownerId: number;

  @Column({ name: 'repositories', type: 'integer', default: 0 })
  repositories: number;
}
