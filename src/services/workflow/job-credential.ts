/**
 * The credential a workflow job's tasks act with. A job records, when it starts, which credential started it (never
 * a secret: a token's id, an access key's id, or "internal"); each time a task runs, that credential is looked up
 * again, so a task can do no more than its starter could with the same credential right now:
 *  - a token (classic or fine-grained): the token's own scopes/permissions, as if the request came with it; a
 *    revoked or expired token, or a token now of another user, fails the task with `Unauthenticated`;
 *  - a workflow access key (signs workflow requests only): the starter's roles, but no site-admin shortcut
 *    (`workflow_job` credential); a deactivated key fails the task;
 *  - in-process callers (CLI, seeding): `internal`, as they are.
 * Jobs recorded before credentials were (NULL) get the `workflow_job` credential. A starter who no longer exists
 * fails the task too.
 */
import type { EntityManager } from 'typeorm';
import { AccessTokenEntity, AccountEntity, WorkflowAccessKeyEntity } from '../../../entities/identity';
import { credentialOfToken } from '../../auth/authenticate';
import type { Credential, Viewer } from '../../auth/viewer';
import { UnauthenticatedError } from '../../errors/app-error';

type StartedCredential = { type: 'classic' | 'fine_grained'; tokenId: number } | { type: 'access_key'; accessKeyId: string } | { type: 'internal' };

/** What a job records of the credential that starts it (JSON, at most 200 characters), or null for none. */
export function describeStartedCredential(viewer: Viewer): string | null {
  if (viewer.kind !== 'user') return null;
  const c = viewer.credential;
  switch (c.type) {
    case 'classic':
    case 'fine_grained':
      return JSON.stringify({ type: c.type, tokenId: Number(c.tokenId) });
    case 'access_key':
      return JSON.stringify({ type: 'access_key', accessKeyId: c.accessKeyId.slice(0, 128) });
    case 'internal':
      return JSON.stringify({ type: 'internal' });
    case 'workflow_job':
      // A task never starts jobs; if one did, its jobs keep its limits.
      return null;
  }
}

function parse(stored: string | null): StartedCredential | null {
  if (stored === null) return null;
  try {
    const v = JSON.parse(stored) as Record<string, unknown>;
    if ((v.type === 'classic' || v.type === 'fine_grained') && Number.isSafeInteger(v.tokenId)) return { type: v.type, tokenId: v.tokenId as number };
    if (v.type === 'access_key' && typeof v.accessKeyId === 'string') return { type: 'access_key', accessKeyId: v.accessKeyId };
    if (v.type === 'internal') return { type: 'internal' };
  } catch {
    // unreadable: treated as no record
  }
  return null;
}

const gone = (what: string) => new UnauthenticatedError(`The ${what} that started this job is no longer valid.`);

/** The viewer a task of this job acts as, checked now; throws UnauthenticatedError when that credential is gone. */
export async function taskViewer(db: EntityManager, job: { id: number; startedBy: number | null; startedCredential: string | null }): Promise<Viewer> {
  if (job.startedBy === null) throw gone('user');
  const user = await db.getRepository(AccountEntity).findOne({ where: { id: job.startedBy } });
  if (!user || user.type !== 'User') throw gone('user');
  const started = parse(job.startedCredential);
  let credential: Credential | null;
  if (started === null) {
    credential = { type: 'workflow_job', jobId: job.id };
  } else if (started.type === 'internal') {
    credential = { type: 'internal' };
  } else if (started.type === 'access_key') {
    const key = await db.getRepository(WorkflowAccessKeyEntity).findOne({ where: { accessKeyId: started.accessKeyId, status: 'Active' } });
    if (!key || Number(key.userId) !== Number(user.id)) throw gone('access key');
    credential = { type: 'workflow_job', jobId: job.id };
  } else {
    const token = await db.getRepository(AccessTokenEntity).findOne({ where: { id: started.tokenId } });
    credential = token && token.revokedAt === null && Number(token.userId) === Number(user.id) && token.kind === started.type ? credentialOfToken(token) : null;
    if (!credential) throw gone('token');
  }
  return { kind: 'user', user, credential };
}
