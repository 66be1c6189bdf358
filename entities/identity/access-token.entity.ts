import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

export type TokenKind = 'classic' | 'fine_grained';

/**
 * A personal access token. Only the SHA-256 of the token is stored (tokens are 190+ bits of randomness,
 * so a fast hash is what GitHub and others use); the plain token is shown once, at creation.
 */
@Entity('access_tokens')
export class AccessTokenEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('IDX_access_tokens_user')
  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'user_id' })
  user?: AccountEntity;

  @Column({ type: 'varchar', length: 16 })
  kind: TokenKind;

  /** hex SHA-256 of the whole token string. */
  @Index('UQ_access_tokens_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  /** First characters of the token (prefix + 4), enough to recognise it in a list; never enough to use it. */
  @Column({ name: 'token_hint', type: 'varchar', length: 16 })
  tokenHint: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  note: string | null;

  /** classic: OAuth scopes such as repo, security_events, public_repo. */
  @Column({ type: 'simple-json', nullable: true })
  scopes: string[] | null;

  /** fine_grained: repository permissions such as { secret_scanning_alerts: 'write', contents: 'read' }. */
  @Column({ type: 'simple-json', nullable: true })
  permissions: Record<string, 'read' | 'write'> | null;

  /** fine_grained: the repositories the token may act on. */
  @Column({ name: 'repository_ids', type: 'simple-json', nullable: true })
  repositoryIds: number[] | null;

  @Column({ name: 'expires_at', type: Date, nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'revoked_at', type: Date, nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
