import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/** A repository, owned by a user or an organization account, with its security settings. */
@Entity('repositories')
@Index('UQ_repositories_owner_name', ['ownerId', 'nameLower'], { unique: true })
export class RepositoryEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'owner_id', type: 'integer' })
  ownerId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'owner_id' })
  owner?: AccountEntity;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'name_lower', type: 'varchar', length: 100 })
  nameLower: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: false })
  private: boolean;

  @Column({ type: 'boolean', default: false })
  fork: boolean;

  @Column({ name: 'secret_scanning', type: 'boolean', default: false })
  secretScanning: boolean;

  @Column({ name: 'push_protection', type: 'boolean', default: false })
  pushProtection: boolean;

  @Column({ name: 'advanced_security', type: 'boolean', default: false })
  advancedSecurity: boolean;

  /** Delegated alert dismissal: only reviewers (repository admins, org admins/security managers) may close alerts. */
  @Column({ name: 'delegated_alert_dismissal', type: 'boolean', default: false })
  delegatedAlertDismissal: boolean;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt: Date;
}
