import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from './account.entity';
import { RepositoryEntity } from './repository.entity';

export const REPOSITORY_PERMISSIONS = ['admin', 'write', 'read'] as const;
export type RepositoryPermission = (typeof REPOSITORY_PERMISSIONS)[number];

/** A user's direct permission on one repository. */
@Entity('repository_collaborators')
@Index('UQ_repository_collaborators_repo_user', ['repositoryId', 'userId'], { unique: true })
export class RepositoryCollaboratorEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'repository_id', type: 'integer' })
  repositoryId: number;

  @ManyToOne(() => RepositoryEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'repository_id' })
  repository?: RepositoryEntity;

  @Index('IDX_repository_collaborators_user')
  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'user_id' })
  user?: AccountEntity;

  @Column({ type: 'varchar', length: 8 })
  permission: RepositoryPermission;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
