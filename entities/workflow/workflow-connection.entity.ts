import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A connection for HTTP tasks (`arn:aws:states:::http:invoke`), shaped like an EventBridge connection: how the task
 * authenticates to an API (API key, basic, OAuth client credentials). Created by admins (CLI, GraphQL) and shared
 * by every workflow job of the gateway. What identifies the credential (the API key's header name, the user name,
 * the OAuth client id and token endpoint) is kept readable in `auth_parameters`; the secret parts (the key, the
 * password, the client secret) only sealed in `secret_ciphertext` (AES-256-GCM under the server key, as access keys).
 */
@Entity('workflow_connections')
export class WorkflowConnectionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** arn:aws:events:<region>:<account>:connection/<name>/<uuid> */
  @Index('UQ_workflow_connections_arn', { unique: true })
  @Column({ type: 'varchar', length: 256 })
  arn: string;

  /** Unique: lists page by name. */
  @Index('UQ_workflow_connections_name', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 512, nullable: true })
  description: string | null;

  /** API_KEY | BASIC | OAUTH_CLIENT_CREDENTIALS */
  @Column({ name: 'authorization_type', type: 'varchar', length: 32 })
  authorizationType: string;

  /** JSON of the non-secret parameters (see connections.service.ts). */
  @Column({ name: 'auth_parameters', type: 'text' })
  authParameters: string;

  /** base64(iv | tag | ciphertext) of a JSON object with the secret parameters. */
  @Column({ name: 'secret_ciphertext', type: 'text' })
  secretCiphertext: string;

  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy: number | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}
