import type { AccountEntity } from '../../entities/identity';

export type Credential =
  | { type: 'classic'; tokenId: number; scopes: ReadonlySet<string> }
  | {
      type: 'fine_grained';
      tokenId: number;
      permissions: Record<string, 'read' | 'write'>;
      repositoryIds: ReadonlySet<number>;
    }
  | { type: 'access_key'; accessKeyId: string }
  /** In-process callers (admin CLI, seeding): the user's roles still apply, no credential limits. */
  | { type: 'internal' }
  /**
   * A workflow job's task, for a job started with a workflow access key (or recorded before credentials were):
   * the starter's roles apply, with no site-admin shortcut. A job started with a token runs its tasks with that
   * token's own credential instead (its scopes/permissions), checked again when each task runs.
   */
  | { type: 'workflow_job'; jobId: number };

export interface AnonymousViewer {
  kind: 'anonymous';
}

export interface UserViewer {
  kind: 'user';
  user: AccountEntity;
  credential: Credential;
}

export type Viewer = AnonymousViewer | UserViewer;

export const ANONYMOUS: AnonymousViewer = Object.freeze({ kind: 'anonymous' as const });
