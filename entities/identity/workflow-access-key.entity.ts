import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/**
 * An access key for signing workflow requests (AWS Signature Version 4). The server must recompute
 * HMACs, so the secret is kept encrypted (AES-256-GCM under the server key), never in plain text.
 */
@Entity('workflow_access_keys')
export class WorkflowAccessKeyEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('UQ_workflow_access_keys_key_id', { unique: true })
  @Column({ name: 'access_key_id', type: 'varchar', length: 32 })
  accessKeyId: string;

  @Index('IDX_workflow_access_keys_user')
  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'user_id' })
  user?: AccountEntity;

  /** base64(iv | tag | ciphertext) */
  @Column({ name: 'secret_ciphertext', type: 'varchar', length: 255 })
  secretCiphertext: string;

  @Column({ type: 'varchar', length: 16, default: 'Active' })
  status: 'Active' | 'Inactive';

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
