/**
 * The workflow domain's access rules, in one place:
 *  - reading anything needs `can(viewer, 'workflow.read')`, every write `workflow.write` (a classic token's
 *    `workflow` scope, a fine-grained token's `workflow` permission, an access key, in-process callers);
 *  - definitions are shared by every workflow user of the gateway (one AWS "account") for reading and starting
 *    jobs; changing or deleting one is its creator's or a site admin's (a job runs its definition with the
 *    starter's rights, so whoever rewrites a definition acts in every later job of it);
 *  - a job is visible to the user who started it and to site admins; a job one may not see does not exist.
 * Services call these before touching data; the list SQL of jobs is derived from `jobVisibilityFilter`.
 */
import type { WorkflowDefinitionEntity, WorkflowJobEntity } from '../../../entities/workflow';
import { can } from '../../auth/permissions';
import type { Viewer } from '../../auth/viewer';
import type { RequestContext } from '../../context';
import { ForbiddenError, UnauthenticatedError } from '../../errors/app-error';

export type WorkflowAccess = 'read' | 'write';

/** Throws unless the viewer may use the workflow service so; returns the viewer's user id. */
export function requireWorkflowAccess(ctx: RequestContext, access: WorkflowAccess): number {
  const v = ctx.viewer;
  if (v.kind !== 'user') throw new UnauthenticatedError('Requires authentication');
  if (!can(v, access === 'read' ? 'workflow.read' : 'workflow.write', { type: 'workflow' })) {
    throw new ForbiddenError(`The credential does not allow workflow ${access === 'read' ? 'reads' : 'writes'} (it needs the workflow ${access === 'read' ? 'read' : 'write'} permission).`);
  }
  return Number(v.user.id);
}

/**
 * Throws (AccessDeniedException / FORBIDDEN) unless the viewer created the definition or is a site admin. Only
 * called for definitions the viewer may read (all of them), so refusing reveals nothing.
 */
export function requireDefinitionOwner(ctx: RequestContext, def: Pick<WorkflowDefinitionEntity, 'createdBy'>, action: 'update' | 'delete'): void {
  const v = ctx.viewer;
  if (v.kind !== 'user') throw new UnauthenticatedError('Requires authentication');
  if (v.user.siteAdmin === true) return;
  if (def.createdBy !== null && Number(def.createdBy) === Number(v.user.id)) return;
  throw new ForbiddenError(`Only the state machine's creator or a site admin may ${action} it.`);
}

/** Site admins see every job. */
function seesAllJobs(viewer: Viewer): boolean {
  return viewer.kind === 'user' && viewer.user.siteAdmin === true;
}

/** May the viewer see this job? (Its starter and site admins.) */
export function jobVisible(viewer: Viewer, job: Pick<WorkflowJobEntity, 'startedBy'>): boolean {
  if (viewer.kind !== 'user') return false;
  return seesAllJobs(viewer) || (job.startedBy !== null && Number(job.startedBy) === Number(viewer.user.id));
}

/** The same rule as SQL for job lists: null = no restriction, else "started_by = :userId". */
export function jobVisibilityFilter(viewer: Viewer): { startedBy: number } | null {
  if (viewer.kind !== 'user') return { startedBy: -1 };
  return seesAllJobs(viewer) ? null : { startedBy: Number(viewer.user.id) };
}
