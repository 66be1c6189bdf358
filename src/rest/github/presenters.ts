/**
 * GitHub REST JSON shapes of users and repositories (simple-user, minimal-repository), with every URL
 * built from PUBLIC_URL so clients follow links back to this server.
 */
import type { AccountEntity, RepositoryEntity } from '../../../entities/identity';
import { toGlobalId } from '../../../resolvers/common/global-id';
import type { RepositorySecuritySettings } from '../../services/identity/identity.service';

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/** ISO 8601 UTC without milliseconds (`2020-11-06T18:48:51Z`), as `toISOString` writes it minus `.sss`. */
export function isoSeconds(d: Date | null | undefined): string | null {
  if (!d) return null;
  const y = d.getUTCFullYear();
  // Four-digit years (all real timestamps) are formatted here, faster than toISOString; the others
  // (extended years, an invalid date's RangeError) by toISOString itself.
  if (!(y >= 1000 && y <= 9999)) return `${d.toISOString().slice(0, -5)}Z`;
  return `${y}-${twoDigits(d.getUTCMonth() + 1)}-${twoDigits(d.getUTCDate())}T${twoDigits(d.getUTCHours())}:${twoDigits(d.getUTCMinutes())}:${twoDigits(d.getUTCSeconds())}Z`;
}

export interface GithubUser {
  login: string;
  id: number;
  node_id: string;
  avatar_url: string;
  gravatar_id: string;
  url: string;
  html_url: string;
  followers_url: string;
  following_url: string;
  gists_url: string;
  starred_url: string;
  subscriptions_url: string;
  organizations_url: string;
  repos_url: string;
  events_url: string;
  received_events_url: string;
  type: string;
  site_admin: boolean;
}

export function presentUser(a: AccountEntity, base: string): GithubUser {
  const api = `${base}/users/${a.login}`;
  return {
    login: a.login,
    id: a.id,
    node_id: toGlobalId(a.type, a.id),
    avatar_url: `${base}/avatars/u/${a.id}`,
    gravatar_id: '',
    url: api,
    html_url: `${base}/${a.login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: a.type,
    site_admin: a.siteAdmin,
  };
}

/** `minimal-repository`; `presentedOwner` is `presentUser(owner, base)` when the caller has it already. */
export function presentRepository(r: RepositoryEntity, owner: AccountEntity, base: string, presentedOwner?: GithubUser) {
  const full = `${owner.login}/${r.name}`;
  const api = `${base}/repos/${full}`;
  return {
    id: r.id,
    node_id: toGlobalId('Repository', r.id),
    name: r.name,
    full_name: full,
    owner: presentedOwner ?? presentUser(owner, base),
    private: r.private,
    html_url: `${base}/${full}`,
    description: r.description,
    fork: r.fork,
    url: api,
    archive_url: `${api}/{archive_format}{/ref}`,
    assignees_url: `${api}/assignees{/user}`,
    blobs_url: `${api}/git/blobs{/sha}`,
    branches_url: `${api}/branches{/branch}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    comments_url: `${api}/comments{/number}`,
    commits_url: `${api}/commits{/sha}`,
    compare_url: `${api}/compare/{base}...{head}`,
    contents_url: `${api}/contents/{+path}`,
    contributors_url: `${api}/contributors`,
    deployments_url: `${api}/deployments`,
    downloads_url: `${api}/downloads`,
    events_url: `${api}/events`,
    forks_url: `${api}/forks`,
    git_commits_url: `${api}/git/commits{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    hooks_url: `${api}/hooks`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    issue_events_url: `${api}/issues/events{/number}`,
    issues_url: `${api}/issues{/number}`,
    keys_url: `${api}/keys{/key_id}`,
    labels_url: `${api}/labels{/name}`,
    languages_url: `${api}/languages`,
    merges_url: `${api}/merges`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    pulls_url: `${api}/pulls{/number}`,
    releases_url: `${api}/releases{/id}`,
    stargazers_url: `${api}/stargazers`,
    statuses_url: `${api}/statuses/{sha}`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    tags_url: `${api}/tags`,
    teams_url: `${api}/teams`,
    trees_url: `${api}/git/trees{/sha}`,
  };
}

/**
 * The full repository object of GET /repos/{owner}/{repo}: minimal-repository plus, when the viewer may see
 * them (IdentityService.securitySettingsFor: repository admins, as on GitHub), the security settings.
 */
export function presentFullRepository(r: RepositoryEntity, owner: AccountEntity, base: string, settings: RepositorySecuritySettings | null) {
  const enabled = (on: boolean) => ({ status: on ? 'enabled' : 'disabled' });
  return {
    ...presentRepository(r, owner, base),
    visibility: r.private ? 'private' : 'public',
    created_at: isoSeconds(r.createdAt),
    updated_at: isoSeconds(r.updatedAt),
    ...(settings
      ? {
          security_and_analysis: {
            advanced_security: enabled(settings.advancedSecurity),
            secret_scanning: enabled(settings.secretScanning),
            secret_scanning_push_protection: enabled(settings.pushProtection),
            secret_scanning_delegated_alert_dismissal: enabled(settings.delegatedAlertDismissal),
          },
        }
      : {}),
  };
}
