import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

export const ORG_ROLES = ['admin', 'security_manager', 'member'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** A user's membership of an organization, with one role. */
@Entity('memberships')
@Index('UQ_memberships_org_user', ['organizationId', 'userId'], { unique: true })
export class MembershipEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'organization_id', type: 'integer' })
  organizationId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'organization_id' })
  organization?: AccountEntity;

  @Index('IDX_memberships_user')
  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'user_id' })
  user?: AccountEntity;

  @Column({ type: 'varchar', length: 24 })
  role: OrgRole;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
