/**
 * The identity and access model, in one pure function: `can(viewer, action, resource)`.
 *
 * A decision combines three things, the way GitHub and WordPress do:
 *  1. who the viewer is (anonymous or a user),
 *  2. what the viewer's role gives (repository permission, organization role, calendar role),
 *  3. what the credential allows (classic token scopes, fine-grained token permissions, access key).
 * The facts about the resource (the viewer's repository permission, organization role...) are computed
 * by AccessService from the database, so this function stays pure and is tested as a matrix.
 */
import type { CalendarRole, OrgRole, RepositoryPermission } from '../../entities/identity';
import type { Viewer } from './viewer';

export type RepositoryAction =
  | 'repository.read'
  | 'repository.push'
  | 'repository.admin'
  | 'secret_scanning.alerts.read'
  | 'secret_scanning.alerts.write'
  | 'secret_scanning.bypass.create'
  | 'secret_scanning.scan_history.read';

export type OrganizationAction = 'organization.read' | 'organization.admin' | 'organization.secret_scanning.alerts.read';

export type CalendarAction =
  | 'calendar.read'
  | 'calendar.read_private'
  | 'calendar.create'
  | 'calendar.edit'
  | 'calendar.publish'
  | 'calendar.delete'
  | 'calendar.manage_terms';

export type WorkflowAction = 'workflow.read' | 'workflow.write';

export type Action = RepositoryAction | OrganizationAction | CalendarAction | WorkflowAction;

export interface RepositoryResource {
  type: 'repository';
  id: number;
  private: boolean;
  /** The viewer's effective permission from ownership, organization role or collaboration. */
  permission: RepositoryPermission | null;
  /** The viewer's role in the owning organization, when the owner is an organization. */
  orgRole: OrgRole | null;
}

export interface OrganizationResource {
  type: 'organization';
  id: number;
  orgRole: OrgRole | null;
}

export interface CalendarResource {
  type: 'calendar';
  /** Author of the item acted on; undefined for collection-level actions (create, list). */
  authorId?: number;
  /** Status of the item: a published item is "published" (WordPress' edit_published_posts rules). */
  published?: boolean;
}

export interface WorkflowResource {
  type: 'workflow';
}

export type Resource = RepositoryResource | OrganizationResource | CalendarResource | WorkflowResource;

const PERMISSION_RANK: Record<RepositoryPermission, number> = { read: 1, write: 2, admin: 3 };

function atLeast(p: RepositoryPermission | null, needed: RepositoryPermission): boolean {
  return p !== null && PERMISSION_RANK[p] >= PERMISSION_RANK[needed];
}

/** Classic scopes that grant a repository action, for private and public repositories. */
const CLASSIC_REPO_SCOPES: Record<RepositoryAction, { private: string[]; public: string[] }> = {
  // Reading public metadata needs no scope; private repositories need `repo`.
  'repository.read': { private: ['repo'], public: ['*'] },
  'repository.push': { private: ['repo'], public: ['repo', 'public_repo'] },
  'repository.admin': { private: ['repo'], public: ['repo', 'public_repo'] },
  'secret_scanning.alerts.read': { private: ['repo', 'security_events'], public: ['repo', 'security_events', 'public_repo'] },
  'secret_scanning.alerts.write': { private: ['repo', 'security_events'], public: ['repo', 'security_events', 'public_repo'] },
  'secret_scanning.bypass.create': { private: ['repo'], public: ['repo'] },
  'secret_scanning.scan_history.read': { private: ['repo', 'security_events'], public: ['repo', 'security_events', 'public_repo'] },
};

/** Fine-grained repository permission each action needs. */
const FINE_GRAINED_REPO_PERMISSION: Record<RepositoryAction, [string, 'read' | 'write'] | null> = {
  'repository.read': null, // metadata: read is implied for every selected repository
  'repository.push': ['contents', 'write'],
  'repository.admin': ['administration', 'write'],
  'secret_scanning.alerts.read': ['secret_scanning_alerts', 'read'],
  'secret_scanning.alerts.write': ['secret_scanning_alerts', 'write'],
  'secret_scanning.bypass.create': ['contents', 'write'],
  'secret_scanning.scan_history.read': ['secret_scanning_alerts', 'read'],
};

/** Classic scopes that grant an organization action. */
const CLASSIC_ORG_SCOPES: Record<OrganizationAction, string[]> = {
  'organization.read': ['*'],
  'organization.admin': ['admin:org'],
  'organization.secret_scanning.alerts.read': ['repo', 'security_events'],
};

const FINE_GRAINED_ORG_PERMISSION: Record<OrganizationAction, [string, 'read' | 'write'] | null> = {
  'organization.read': null,
  'organization.admin': ['organization_administration', 'write'],
  'organization.secret_scanning.alerts.read': ['secret_scanning_alerts', 'read'],
};

/** WordPress capabilities per calendar role (subset that the calendar domain uses). */
export const CALENDAR_CAPABILITIES: Record<CalendarRole, ReadonlySet<string>> = {
  subscriber: new Set(['read']),
  contributor: new Set(['read', 'edit_posts', 'delete_posts']),
  author: new Set(['read', 'edit_posts', 'delete_posts', 'publish_posts', 'edit_published_posts', 'delete_published_posts', 'upload_files']),
  editor: new Set([
    'read',
    'edit_posts',
    'delete_posts',
    'publish_posts',
    'edit_published_posts',
    'delete_published_posts',
    'upload_files',
    'edit_others_posts',
    'delete_others_posts',
    'read_private_posts',
    'manage_categories',
  ]),
};

function grantsFineGrained(
  permissions: Record<string, 'read' | 'write'> | null,
  need: [string, 'read' | 'write'] | null,
): boolean {
  if (need === null) return true;
  const have = permissions?.[need[0]];
  if (!have) return false;
  return need[1] === 'read' ? have === 'read' || have === 'write' : have === 'write';
}

function hasAnyScope(scopes: ReadonlySet<string>, wanted: string[]): boolean {
  return wanted.includes('*') || wanted.some((s) => scopes.has(s));
}

function credentialAllowsRepository(viewer: Viewer, action: RepositoryAction, repo: RepositoryResource): boolean {
  if (viewer.kind !== 'user') return false;
  const c = viewer.credential;
  switch (c.type) {
    case 'internal':
    case 'workflow_job':
      return true;
    case 'access_key':
      return false; // access keys sign workflow requests only
    case 'classic':
      return hasAnyScope(c.scopes, repo.private ? CLASSIC_REPO_SCOPES[action].private : CLASSIC_REPO_SCOPES[action].public);
    case 'fine_grained':
      // Like GitHub's, a fine-grained token reads the metadata of every public repository (what anonymous
      // viewers read too); everything else needs the repository selected and the permission.
      if (action === 'repository.read' && !repo.private) return true;
      return c.repositoryIds.has(repo.id) && grantsFineGrained(c.permissions, FINE_GRAINED_REPO_PERMISSION[action]);
  }
}

function roleAllowsRepository(action: RepositoryAction, r: RepositoryResource): boolean {
  const securityManager = r.orgRole === 'security_manager';
  const orgAdmin = r.orgRole === 'admin';
  switch (action) {
    case 'repository.read':
      return !r.private || r.permission !== null || securityManager || orgAdmin;
    case 'repository.push':
      return atLeast(r.permission, 'write');
    case 'repository.admin':
      return atLeast(r.permission, 'admin') || orgAdmin;
    case 'secret_scanning.alerts.read':
    case 'secret_scanning.alerts.write':
    case 'secret_scanning.scan_history.read':
      // Repository administrators, administrators of the owning organization, and its security managers.
      return atLeast(r.permission, 'admin') || orgAdmin || securityManager;
    case 'secret_scanning.bypass.create':
      // Whoever may push; that the viewer is the pusher is checked against the placeholder by the service.
      return atLeast(r.permission, 'write');
  }
}

function roleAllowsOrganization(action: OrganizationAction, o: OrganizationResource): boolean {
  switch (action) {
    case 'organization.read':
      return true; // organizations are public
    case 'organization.admin':
      return o.orgRole === 'admin';
    case 'organization.secret_scanning.alerts.read':
      return o.orgRole === 'admin' || o.orgRole === 'security_manager';
  }
}

function calendarAllows(viewer: Viewer, action: CalendarAction, res: CalendarResource): boolean {
  if (action === 'calendar.read') return true; // published events are public
  if (viewer.kind !== 'user') return false;
  const c = viewer.credential;
  if (c.type === 'access_key') return false;
  const writing = action !== 'calendar.read_private';
  if (c.type === 'fine_grained' && !grantsFineGrained(c.permissions, ['calendar', writing ? 'write' : 'read'])) return false;
  // Classic tokens write the calendar only with the `calendar` scope (as `workflow` gates workflows): a token made
  // for repositories (`repo`, `public_repo`) or workflows never acts with the user's calendar role. Reads, also of
  // the viewer's own and (editors) others' unpublished posts, need no scope.
  if (c.type === 'classic' && writing && !c.scopes.has('calendar')) return false;
  const role = viewer.user.calendarRole;
  if (!role) return false;
  const caps = CALENDAR_CAPABILITIES[role];
  const own = res.authorId === undefined || res.authorId === viewer.user.id;
  switch (action) {
    case 'calendar.read_private':
      return own ? caps.has('edit_posts') : caps.has('read_private_posts');
    case 'calendar.create':
      return caps.has('edit_posts');
    case 'calendar.publish':
      return caps.has('publish_posts') && (own || caps.has('edit_others_posts'));
    case 'calendar.edit':
      if (!own && !caps.has('edit_others_posts')) return false;
      return res.published ? caps.has('edit_published_posts') : caps.has('edit_posts');
    case 'calendar.delete':
      if (!own && !caps.has('delete_others_posts')) return false;
      return res.published ? caps.has('delete_published_posts') : caps.has('delete_posts');
    case 'calendar.manage_terms':
      return caps.has('manage_categories');
  }
}

function workflowAllows(viewer: Viewer, action: WorkflowAction): boolean {
  if (viewer.kind !== 'user') return false;
  const c = viewer.credential;
  switch (c.type) {
    case 'internal':
    case 'access_key':
    case 'workflow_job':
      return true;
    case 'classic':
      return c.scopes.has('workflow');
    case 'fine_grained':
      return grantsFineGrained(c.permissions, ['workflow', action === 'workflow.read' ? 'read' : 'write']);
  }
}

export function can(viewer: Viewer, action: Action, resource: Resource): boolean {
  switch (resource.type) {
    case 'repository': {
      const a = action as RepositoryAction;
      if (!(a in CLASSIC_REPO_SCOPES)) return false;
      // Anonymous viewers may read public repository metadata and nothing else.
      if (viewer.kind !== 'user') return a === 'repository.read' && !resource.private;
      if (viewer.user.siteAdmin && viewer.credential.type === 'internal') return true;
      return roleAllowsRepository(a, resource) && credentialAllowsRepository(viewer, a, resource);
    }
    case 'organization': {
      const a = action as OrganizationAction;
      if (!(a in CLASSIC_ORG_SCOPES)) return false;
      if (a === 'organization.read') return true;
      if (viewer.kind !== 'user') return false;
      const c = viewer.credential;
      if (c.type === 'access_key') return false;
      if (!roleAllowsOrganization(a, resource)) return false;
      if (c.type === 'internal' || c.type === 'workflow_job') return true;
      if (c.type === 'classic') return hasAnyScope(c.scopes, CLASSIC_ORG_SCOPES[a]);
      return grantsFineGrained(c.permissions, FINE_GRAINED_ORG_PERMISSION[a]);
    }
    case 'calendar':
      return action.startsWith('calendar.') && calendarAllows(viewer, action as CalendarAction, resource);
    case 'workflow':
      return action.startsWith('workflow.') && workflowAllows(viewer, action as WorkflowAction);
  }
}

/**
 * Why `can()` denies an action, so a Forbidden answer names what is actually missing:
 *  - `role`: the viewer's role does not allow it (whatever the credential), or the viewer is anonymous;
 *  - `scope`: the role allows it but the classic token has none of `anyOf`;
 *  - `permission`: the role allows it but the fine-grained token lacks `permission` (`access` or more);
 *  - `repository`: the role allows it but the fine-grained token does not select the repository;
 *  - `credential`: the role allows it but this kind of credential never may (workflow access keys).
 * null when `can()` allows. Computed from the same tables as `can()`; repository and organization actions only.
 */
export type Denial =
  | { by: 'role' }
  | { by: 'scope'; anyOf: string[] }
  | { by: 'permission'; permission: string; access: 'read' | 'write' }
  | { by: 'repository' }
  | { by: 'credential' };

export function denial(viewer: Viewer, action: RepositoryAction | OrganizationAction, resource: RepositoryResource | OrganizationResource): Denial | null {
  if (can(viewer, action, resource)) return null;
  if (viewer.kind !== 'user') return { by: 'role' };
  const c = viewer.credential;
  if (resource.type === 'repository') {
    const a = action as RepositoryAction;
    if (!(a in CLASSIC_REPO_SCOPES) || !roleAllowsRepository(a, resource)) return { by: 'role' };
    if (c.type === 'classic') return { by: 'scope', anyOf: resource.private ? CLASSIC_REPO_SCOPES[a].private : CLASSIC_REPO_SCOPES[a].public };
    if (c.type === 'fine_grained') {
      if (!c.repositoryIds.has(resource.id)) return { by: 'repository' };
      const need = FINE_GRAINED_REPO_PERMISSION[a];
      return need ? { by: 'permission', permission: need[0], access: need[1] } : { by: 'repository' };
    }
    return { by: 'credential' };
  }
  const a = action as OrganizationAction;
  if (!(a in CLASSIC_ORG_SCOPES) || !roleAllowsOrganization(a, resource)) return { by: 'role' };
  if (c.type === 'classic') return { by: 'scope', anyOf: CLASSIC_ORG_SCOPES[a] };
  if (c.type === 'fine_grained') {
    const need = FINE_GRAINED_ORG_PERMISSION[a];
    return need ? { by: 'permission', permission: need[0], access: need[1] } : { by: 'credential' };
  }
  return { by: 'credential' };
}
