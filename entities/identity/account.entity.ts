import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type AccountType = 'User' | 'Organization';
export const CALENDAR_ROLES = ['editor', 'author', 'contributor', 'subscriber'] as const;
export type CalendarRole = (typeof CALENDAR_ROLES)[number];

/**
 * Users and organizations share one table, one id space and one login namespace, as on GitHub:
 * a repository owner is an account of either type, and `login` is unique case-insensitively.
 */
@Entity('accounts')
export class AccountEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 39 })
  login: string;

  /** lower(login): the unique, case-insensitive lookup key. */
  @Index('UQ_accounts_login_lower', { unique: true })
  @Column({ name: 'login_lower', type: 'varchar', length: 39 })
  loginLower: string;

  @Column({ type: 'varchar', length: 16 })
  type: AccountType;

  @Column({ type: 'varchar', length: 255, nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  email: string | null;

  /** WordPress-style role for the calendar domain; null = no calendar access beyond public reads. */
  @Column({ name: 'calendar_role', type: 'varchar', length: 16, nullable: true })
  calendarRole: CalendarRole | null;

  @Column({ name: 'site_admin', type: 'boolean', default: false })
  siteAdmin: boolean;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt: Date;
}
