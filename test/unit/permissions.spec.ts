/**
 * can(viewer, action, resource) as a matrix: each role x each credential kind/scope x each action.
 */
import type { AccountEntity, CalendarRole, OrgRole, RepositoryPermission } from '../../entities/identity';
import { Action, can, RepositoryAction, RepositoryResource } from '../../src/auth/permissions';
import { ANONYMOUS, Credential, Viewer } from '../../src/auth/viewer';

const user = (extra: Partial<AccountEntity> = {}): AccountEntity =>
  ({ id: 7, login: 'u', loginLower: 'u', type: 'User', name: null, email: null, calendarRole: null, siteAdmin: false, ...extra }) as AccountEntity;

const classic = (...scopes: string[]): Credential => ({ type: 'classic', tokenId: 1, scopes: new Set(scopes) });
const fine = (perms: Record<string, 'read' | 'write'>, repos = [1]): Credential => ({
  type: 'fine_grained',
  tokenId: 2,
  permissions: perms,
  repositoryIds: new Set(repos),
});
const as = (credential: Credential, extra: Partial<AccountEntity> = {}): Viewer => ({ kind: 'user', user: user(extra), credential });

const repo = (permission: RepositoryPermission | null, orgRole: OrgRole | null = null, isPrivate = true): RepositoryResource => ({
  type: 'repository',
  id: 1,
  private: isPrivate,
  permission,
  orgRole,
});

const REPO_ACTIONS: RepositoryAction[] = [
  'repository.read',
  'repository.push',
  'repository.admin',
  'secret_scanning.alerts.read',
  'secret_scanning.alerts.write',
  'secret_scanning.bypass.create',
  'secret_scanning.scan_history.read',
];

// Role dimension (private repository, a classic token with every scope): which actions each role may do.
const ROLES: Array<[string, RepositoryResource, RepositoryAction[]]> = [
  ['no relation', repo(null), []],
  ['read collaborator', repo('read'), ['repository.read']],
  ['write collaborator', repo('write'), ['repository.read', 'repository.push', 'secret_scanning.bypass.create']],
  ['admin collaborator', repo('admin'), REPO_ACTIONS],
  ['org member', repo('read', 'member'), ['repository.read']],
  [
    'org security manager',
    repo('read', 'security_manager'),
    ['repository.read', 'secret_scanning.alerts.read', 'secret_scanning.alerts.write', 'secret_scanning.scan_history.read'],
  ],
  ['org admin', repo('admin', 'admin'), REPO_ACTIONS],
  ['org member with write', repo('write', 'member'), ['repository.read', 'repository.push', 'secret_scanning.bypass.create']],
];

describe('can(): repository roles', () => {
  const full = as(classic('repo', 'security_events', 'public_repo', 'admin:org', 'workflow'));
  for (const [name, resource, allowed] of ROLES) {
    for (const action of REPO_ACTIONS) {
      const expected = allowed.includes(action);
      it(`${name}: ${action} -> ${expected ? 'allowed' : 'denied'}`, () => {
        expect(can(full, action, resource)).toBe(expected);
      });
    }
  }
});

// Credential dimension (the viewer is a repository admin): which actions each credential allows.
const CREDENTIALS: Array<[string, Credential, { private: RepositoryAction[]; public: RepositoryAction[] }]> = [
  ['classic repo', classic('repo'), { private: REPO_ACTIONS, public: REPO_ACTIONS }],
  [
    'classic security_events',
    classic('security_events'),
    {
      private: ['secret_scanning.alerts.read', 'secret_scanning.alerts.write', 'secret_scanning.scan_history.read'],
      public: ['repository.read', 'secret_scanning.alerts.read', 'secret_scanning.alerts.write', 'secret_scanning.scan_history.read'],
    },
  ],
  [
    'classic public_repo',
    classic('public_repo'),
    {
      private: [],
      public: [
        'repository.read',
        'repository.push',
        'repository.admin',
        'secret_scanning.alerts.read',
        'secret_scanning.alerts.write',
        'secret_scanning.scan_history.read',
      ],
    },
  ],
  ['classic no scopes', classic(), { private: [], public: ['repository.read'] }],
  [
    'fine-grained secret_scanning_alerts:read',
    fine({ secret_scanning_alerts: 'read' }),
    {
      private: ['repository.read', 'secret_scanning.alerts.read', 'secret_scanning.scan_history.read'],
      public: ['repository.read', 'secret_scanning.alerts.read', 'secret_scanning.scan_history.read'],
    },
  ],
  [
    'fine-grained secret_scanning_alerts:write',
    fine({ secret_scanning_alerts: 'write' }),
    {
      private: ['repository.read', 'secret_scanning.alerts.read', 'secret_scanning.alerts.write', 'secret_scanning.scan_history.read'],
      public: ['repository.read', 'secret_scanning.alerts.read', 'secret_scanning.alerts.write', 'secret_scanning.scan_history.read'],
    },
  ],
  [
    'fine-grained contents:write',
    fine({ contents: 'write' }),
    {
      private: ['repository.read', 'repository.push', 'secret_scanning.bypass.create'],
      public: ['repository.read', 'repository.push', 'secret_scanning.bypass.create'],
    },
  ],
  ['fine-grained contents:read', fine({ contents: 'read' }), { private: ['repository.read'], public: ['repository.read'] }],
  ['fine-grained administration:write', fine({ administration: 'write' }), { private: ['repository.read', 'repository.admin'], public: ['repository.read', 'repository.admin'] }],
  // (a fine-grained token reads every public repository's metadata, like GitHub's and like anonymous viewers)
  ['fine-grained for another repository', fine({ secret_scanning_alerts: 'write', contents: 'write' }, [99]), { private: [], public: ['repository.read'] }],
  ['workflow access key', { type: 'access_key', accessKeyId: 'AKIAEXAMPLE' }, { private: [], public: [] }],
  ['internal (CLI)', { type: 'internal' }, { private: REPO_ACTIONS, public: REPO_ACTIONS }],
];

describe('can(): credentials on a repository the viewer administers', () => {
  for (const [name, credential, allowed] of CREDENTIALS) {
    for (const visibility of ['private', 'public'] as const) {
      for (const action of REPO_ACTIONS) {
        const expected = allowed[visibility].includes(action);
        it(`${name}, ${visibility}: ${action} -> ${expected ? 'allowed' : 'denied'}`, () => {
          expect(can(as(credential), action, repo('admin', null, visibility === 'private'))).toBe(expected);
        });
      }
    }
  }
});

describe('can(): anonymous viewers', () => {
  it('may read public repositories and nothing else', () => {
    for (const action of REPO_ACTIONS) {
      expect(can(ANONYMOUS, action, repo(null, null, false))).toBe(action === 'repository.read');
      expect(can(ANONYMOUS, action, repo(null, null, true))).toBe(false);
    }
    expect(can(ANONYMOUS, 'organization.secret_scanning.alerts.read', { type: 'organization', id: 1, orgRole: null })).toBe(false);
    expect(can(ANONYMOUS, 'calendar.read', { type: 'calendar' })).toBe(true);
    expect(can(ANONYMOUS, 'calendar.create', { type: 'calendar' })).toBe(false);
    expect(can(ANONYMOUS, 'workflow.read', { type: 'workflow' })).toBe(false);
  });
});

describe('can(): organization secret scanning alerts (endpoint 1)', () => {
  const cases: Array<[OrgRole | null, Credential, boolean]> = [
    ['admin', classic('repo'), true],
    ['admin', classic('security_events'), true],
    ['admin', classic('public_repo'), false],
    ['admin', classic('read:org'), false],
    ['security_manager', classic('security_events'), true],
    ['security_manager', fine({ secret_scanning_alerts: 'read' }), true],
    ['security_manager', fine({ contents: 'write' }), false],
    ['member', classic('repo', 'security_events'), false],
    [null, classic('repo', 'security_events'), false],
    ['admin', { type: 'access_key', accessKeyId: 'AKIA' }, false],
    ['admin', { type: 'internal' }, true],
  ];
  it.each(cases)('role %p with %p -> %p', (orgRole, credential, expected) => {
    expect(can(as(credential), 'organization.secret_scanning.alerts.read', { type: 'organization', id: 3, orgRole })).toBe(expected);
  });
  it('only org admins administer the organization', () => {
    expect(can(as(classic('admin:org')), 'organization.admin', { type: 'organization', id: 3, orgRole: 'admin' })).toBe(true);
    expect(can(as(classic('repo')), 'organization.admin', { type: 'organization', id: 3, orgRole: 'admin' })).toBe(false);
    expect(can(as(classic('admin:org')), 'organization.admin', { type: 'organization', id: 3, orgRole: 'security_manager' })).toBe(false);
  });
});

describe('can(): calendar roles (WordPress capabilities)', () => {
  const ROLES_: Array<CalendarRole | null> = ['editor', 'author', 'contributor', 'subscriber', null];
  // [action, own draft, own published, others' draft, others' published] per role
  const table: Record<string, Record<string, boolean[]>> = {
    'calendar.read_private': { editor: [true, true, true, true], author: [true, true, false, false], contributor: [true, true, false, false], subscriber: [false, false, false, false], none: [false, false, false, false] },
    'calendar.edit': { editor: [true, true, true, true], author: [true, true, false, false], contributor: [true, false, false, false], subscriber: [false, false, false, false], none: [false, false, false, false] },
    'calendar.delete': { editor: [true, true, true, true], author: [true, true, false, false], contributor: [true, false, false, false], subscriber: [false, false, false, false], none: [false, false, false, false] },
    'calendar.publish': { editor: [true, true, true, true], author: [true, true, false, false], contributor: [false, false, false, false], subscriber: [false, false, false, false], none: [false, false, false, false] },
  };
  const items = [
    { authorId: 7, published: false },
    { authorId: 7, published: true },
    { authorId: 8, published: false },
    { authorId: 8, published: true },
  ];
  for (const [action, byRole] of Object.entries(table)) {
    for (const role of ROLES_) {
      const expected = byRole[role ?? 'none'];
      it(`${role ?? 'no role'}: ${action} on own draft/own published/others' draft/others' published -> ${expected}`, () => {
        const v = as(classic('calendar'), { calendarRole: role });
        expect(items.map((i) => can(v, action as Action, { type: 'calendar', ...i }))).toEqual(expected);
      });
    }
  }
  it.each([
    ['editor', true, true],
    ['author', true, false],
    ['contributor', true, false],
    ['subscriber', false, false],
  ] as const)('%s: create=%p manage_terms=%p', (role, create, terms) => {
    const v = as(classic('calendar'), { calendarRole: role });
    expect(can(v, 'calendar.create', { type: 'calendar' })).toBe(create);
    expect(can(v, 'calendar.manage_terms', { type: 'calendar' })).toBe(terms);
  });
  it('classic tokens write the calendar only with the calendar scope; reads need none (issue 20.9)', () => {
    for (const scopes of [[], ['repo'], ['public_repo'], ['workflow'], ['repo', 'security_events', 'admin:org', 'workflow']]) {
      const v = as(classic(...scopes), { calendarRole: 'editor' });
      for (const action of ['calendar.create', 'calendar.edit', 'calendar.publish', 'calendar.delete', 'calendar.manage_terms'] as const) {
        expect(can(v, action, { type: 'calendar', authorId: 8 })).toBe(false);
      }
      expect(can(v, 'calendar.read_private', { type: 'calendar', authorId: 8 })).toBe(true);
      expect(can(v, 'calendar.read', { type: 'calendar' })).toBe(true);
    }
    expect(can(as(classic('calendar'), { calendarRole: 'editor' }), 'calendar.create', { type: 'calendar' })).toBe(true);
    expect(can(as(classic('calendar'), { calendarRole: 'subscriber' }), 'calendar.create', { type: 'calendar' })).toBe(false);
  });

  it('fine-grained tokens need the calendar permission; access keys never act on the calendar', () => {
    expect(can(as(fine({ calendar: 'write' }), { calendarRole: 'editor' }), 'calendar.create', { type: 'calendar' })).toBe(true);
    expect(can(as(fine({ calendar: 'read' }), { calendarRole: 'editor' }), 'calendar.create', { type: 'calendar' })).toBe(false);
    expect(can(as(fine({ calendar: 'read' }), { calendarRole: 'editor' }), 'calendar.read_private', { type: 'calendar', authorId: 8 })).toBe(true);
    expect(can(as({ type: 'access_key', accessKeyId: 'A' }, { calendarRole: 'editor' }), 'calendar.create', { type: 'calendar' })).toBe(false);
  });
});

describe('can(): workflow', () => {
  it.each([
    [{ type: 'access_key', accessKeyId: 'A' } as Credential, true, true],
    [classic('workflow'), true, true],
    [classic('repo'), false, false],
    [fine({ workflow: 'read' }), true, false],
    [fine({ workflow: 'write' }), true, true],
  ])('%p -> read %p, write %p', (credential, read, write) => {
    expect(can(as(credential), 'workflow.read', { type: 'workflow' })).toBe(read);
    expect(can(as(credential), 'workflow.write', { type: 'workflow' })).toBe(write);
  });
});

describe('can(): actions never cross resource types', () => {
  it('a repository action on an organization (or the reverse) is denied', () => {
    const v = as({ type: 'internal' });
    expect(can(v, 'repository.read', { type: 'organization', id: 1, orgRole: 'admin' })).toBe(false);
    expect(can(v, 'organization.admin', repo('admin', 'admin'))).toBe(false);
    expect(can(v, 'workflow.read', { type: 'calendar' })).toBe(false);
  });
});

describe('workflow_job credential (a job started with an access key: the starter\'s roles in its tasks)', () => {
  const job: Credential = { type: 'workflow_job', jobId: 1 };
  it('grants exactly what the role grants, for repositories, organizations and the calendar', () => {
    for (const action of REPO_ACTIONS) {
      expect([action, can(as(job), action, repo('admin'))]).toEqual([action, true]);
      expect([action, can(as(job), action, repo(null))]).toEqual([action, false]);
    }
    expect(can(as(job), 'organization.admin', { type: 'organization', id: 1, orgRole: 'admin' })).toBe(true);
    expect(can(as(job), 'organization.admin', { type: 'organization', id: 1, orgRole: 'member' })).toBe(false);
    expect(can(as(job, { calendarRole: 'editor' }), 'calendar.publish', { type: 'calendar' })).toBe(true);
    expect(can(as(job), 'calendar.create', { type: 'calendar' })).toBe(false);
  });
  it('has no site-admin shortcut (only in-process callers do)', () => {
    expect(can(as(job, { siteAdmin: true }), 'secret_scanning.alerts.write', repo(null))).toBe(false);
    expect(can(as({ type: 'internal' }, { siteAdmin: true }), 'secret_scanning.alerts.write', repo(null))).toBe(true);
  });
});
