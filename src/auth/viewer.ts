import type { AccountEntity } from '../../entities';

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
  | { type: 'internal' };

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
