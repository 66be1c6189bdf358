/**
 * The GitHub JSON of secret scanning alerts, byte for byte, over a varied fixture set: every state and
 * resolution, nulls, bypasses, validity, multi_repo/publicly_leaked/base64, every location type as the first
 * location (wiki pages with and without URL or commit), hide_secret, the three alert variants, escaping
 * (quotes, backslashes, control characters, non-ASCII, surrogate pairs, U+2028), users missing from the refs.
 *
 * The expected texts (their SHA-256 in test/fixtures/secret-scanning-rest-answers.golden.json) were written by
 * the presenters of main before they were made faster (per-answer shared users and repositories, object
 * literals in field order, date formatting without toISOString): the answers must not change by a byte.
 * To rewrite them on purpose: WRITE_GOLDEN=1 npx jest test/unit/secret-scanning/rest-presenters.spec.ts
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AccountEntity, RepositoryEntity } from '../../../entities/identity';
import type { SecretScanningAlertEntity, SecretScanningLocationEntity } from '../../../entities/secret-scanning';
import { LOCATION_TYPES } from '../../../entities/secret-scanning';
import { isoSeconds } from '../../../src/rest/github/presenters';
import * as S from '../../../src/rest/github/secret-scanning.presenters';

const GOLDEN = path.join(__dirname, '..', '..', 'fixtures', 'secret-scanning-rest-answers.golden.json');
const BASE = 'https://gh.example.test/api/v3';

function account(id: number, login: string, type: 'User' | 'Organization', siteAdmin = false): AccountEntity {
  return { id, login, loginLower: login.toLowerCase(), type, name: null, email: null, calendarRole: null, siteAdmin } as unknown as AccountEntity;
}
function repository(id: number, owner: AccountEntity, name: string, extra: Partial<RepositoryEntity> = {}): RepositoryEntity {
  return { id, ownerId: owner.id, name, nameLower: name.toLowerCase(), description: null, private: false, fork: false, ...extra } as unknown as RepositoryEntity;
}

const org = account(1, 'acme', 'Organization');
const alice = account(2, 'alice', 'User', true);
const bob = account(3, 'Bob-the-builder', 'User');
const carol = account(4, 'carol', 'User');
const repos = [
  repository(10, org, 'api', { private: true, description: 'The "API" \\ service\nwith ünïcödé, 😀 and \u2028' }),
  repository(11, org, 'web.site', { fork: true }),
  repository(12, carol, 'dotfiles', { description: '' }),
];
const owners = new Map([org, alice, bob, carol].map((a) => [a.id, a]));

let nextLocation = 100;
function location(type: (typeof LOCATION_TYPES)[number], extra: Partial<SecretScanningLocationEntity> = {}): SecretScanningLocationEntity {
  const id = nextLocation++;
  const commitLike = type === 'commit' || type === 'wiki_commit';
  return {
    id,
    alertId: 0,
    type,
    placeKey: `k${id}`,
    path: commitLike ? `config/${id}/.env` : null,
    startLine: commitLike ? id : null,
    endLine: commitLike ? id + 1 : null,
    startColumn: commitLike ? 3 : null,
    endColumn: commitLike ? 47 : null,
    blobSha: commitLike ? 'ab'.repeat(20) : null,
    commitSha: commitLike ? 'cd'.repeat(20) : null,
    url: commitLike ? null : `${BASE}/acme/api/${type}/${id}`,
    createdAt: new Date(Date.UTC(2024, 0, 1)),
    ...extra,
  } as SecretScanningLocationEntity;
}

const locations: SecretScanningLocationEntity[] = [
  ...LOCATION_TYPES.map((t) => location(t)),
  location('wiki_commit', { url: 'https://wiki.example.test/page', path: 'Home.md' }),
  location('wiki_commit', { commitSha: null, path: 'Notes' }),
  location('commit', { blobSha: null, commitSha: null }),
];

const RESOLUTIONS = [null, 'false_positive', 'wont_fix', 'revoked', 'used_in_tests'] as const;
const VALIDITIES = ['unknown', 'active', 'inactive'] as const;
const SECRETS = ['ghp_' + 'a'.repeat(36), 'line1\nline2\t"quoted"\\', 'ünïcödé-😀-\u2028-\u0001', '</script><!--'];

const alerts: SecretScanningAlertEntity[] = [];
for (let i = 0; i < 40; i++) {
  const resolution = RESOLUTIONS[i % RESOLUTIONS.length];
  const resolved = resolution !== null;
  const repo = repos[i % repos.length];
  const first = i % 7 === 6 ? null : locations[i % locations.length];
  const userIds = [alice.id, bob.id, carol.id, 99 /* not loaded */, null];
  const bypassed = i % 4 === 1;
  alerts.push({
    id: 1000 + i,
    repositoryId: repo.id,
    ownerId: repo.ownerId,
    number: i + 1,
    state: resolved ? 'resolved' : 'open',
    resolution,
    resolvedAt: resolved ? new Date(Date.UTC(2025, i % 12, 1 + (i % 28), i % 24, i % 60, (i * 7) % 60, i * 37)) : null,
    resolvedById: resolved ? userIds[i % userIds.length] : null,
    resolutionComment: resolved && i % 3 === 0 ? `comment ${i}: "why" \\ ${SECRETS[i % SECRETS.length]}` : null,
    secretType: i % 2 ? 'github_personal_access_token' : 'aws_access_key_id',
    secretTypeDisplayName: i % 2 ? 'GitHub Personal Access Token' : 'AWS Access Key ID',
    provider: i % 5 === 4 ? null : 'GitHub',
    providerSlug: i % 5 === 4 ? null : 'github',
    secret: SECRETS[i % SECRETS.length],
    secretHash: 'f'.repeat(64),
    validity: VALIDITIES[i % VALIDITIES.length],
    publiclyLeaked: i % 6 === 2,
    multiRepo: i % 5 === 3,
    isBase64Encoded: i % 9 === 8,
    pushProtectionBypassed: bypassed,
    pushProtectionBypassedById: bypassed ? userIds[(i + 1) % userIds.length] : null,
    pushProtectionBypassedAt: bypassed ? new Date(Date.UTC(2024, 5, 30, 23, 59, 59, 999)) : null,
    assignedToId: i % 3 === 0 ? userIds[(i + 2) % userIds.length] : null,
    firstLocationId: first?.id ?? null,
    locationsCount: first ? 1 + (i % 3) : 0,
    createdAt: new Date(Date.UTC(2020 + (i % 6), i % 12, 1 + (i % 28), 0, 0, i % 60, i % 3 ? 0 : 500)),
    updatedAt: new Date(Date.UTC(2026, 0, 1, 12, 0, 0, i)),
  } as unknown as SecretScanningAlertEntity);
}

const refs: S.AlertRefs = {
  users: new Map([alice, bob, carol].map((u) => [u.id, u])),
  locations: new Map(locations.map((l) => [l.id, l])),
  repos: new Map(repos.map((r) => [r.id, { repo: r, owner: owners.get(r.ownerId)! }])),
};

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Every answer text the presenters give for the fixture set, by name. */
function answers(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const hideSecret of [false, true]) {
    for (const variant of ['organization', 'repository'] as const) {
      // A list answer presents all its alerts with one AnswerPresentations (as the list routes do).
      const presentations = 'AnswerPresentations' in S ? new S.AnswerPresentations(BASE) : undefined;
      out[`${variant} list hide_secret=${hideSecret}`] = JSON.stringify(alerts.map((a) => S.presentAlert(a, refs, { base: BASE, variant, hideSecret, presentations })));
    }
    for (const a of alerts) out[`single ${a.number} hide_secret=${hideSecret}`] = JSON.stringify(S.presentAlert(a, refs, { base: BASE, variant: 'single', hideSecret }));
  }
  out.locations = JSON.stringify(locations.map((l) => S.presentLocation(l, refs.repos.get(10)!, BASE)));
  return out;
}

describe('GitHub JSON of secret scanning alerts', () => {
  if (process.env.WRITE_GOLDEN === '1') {
    it('writes the expected answers', () => {
      const digests = Object.fromEntries(Object.entries(answers()).map(([name, text]) => [name, sha256(text)]));
      fs.writeFileSync(GOLDEN, `${JSON.stringify(digests, null, 1)}\n`);
    });
    return;
  }
  const golden = JSON.parse(fs.readFileSync(GOLDEN, 'utf8')) as Record<string, string>;
  const now = answers();

  it('covers the same answers as the expected set', () => {
    expect(Object.keys(now).sort()).toEqual(Object.keys(golden).sort());
  });

  it.each(Object.keys(golden))('%s is byte-identical to the expected text', (name) => {
    expect(sha256(now[name])).toBe(golden[name]);
  });

  it('a list answer presents each user and repository once (the same object in every alert)', () => {
    const presentations = new S.AnswerPresentations(BASE);
    const list = alerts.map((a) => S.presentAlert(a, refs, { base: BASE, variant: 'organization', presentations }));
    const byRepo = new Map<number, unknown>();
    for (const a of list) {
      const r = a.repository as { id: number; owner: unknown };
      if (byRepo.has(r.id)) expect(byRepo.get(r.id)).toBe(r);
      byRepo.set(r.id, r);
    }
    expect(byRepo.size).toBe(repos.length);
    const orgRepos = list.map((a) => a.repository as { owner: unknown }).filter((r) => (r.owner as { login: string }).login === 'acme');
    expect(new Set(orgRepos.map((r) => r.owner)).size).toBe(1);
    const assignees = list.map((a) => a.assigned_to).filter((u): u is { login: string } => u !== null);
    for (const login of ['alice', 'Bob-the-builder', 'carol']) expect(new Set(assignees.filter((u) => u.login === login)).size).toBeLessThanOrEqual(1);
  });
});

describe('isoSeconds', () => {
  const viaToIso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  it.each([
    0,
    Date.UTC(1000, 0, 1),
    Date.UTC(999, 11, 31, 23, 59, 59, 999),
    Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    Date.UTC(10000, 0, 1),
    Date.UTC(-1, 5, 6, 7, 8, 9),
    Date.UTC(2024, 1, 29, 9, 5, 3, 7),
    8.64e15,
    -8.64e15,
  ])('formats %p as toISOString without milliseconds', (t) => {
    expect(isoSeconds(new Date(t))).toBe(viaToIso(new Date(t)));
  });

  it('agrees with toISOString over a spread of instants', () => {
    for (let t = -62e12; t < 260e12; t += 987_654_321_987) expect(isoSeconds(new Date(t))).toBe(viaToIso(new Date(t)));
  });

  it('is null without a date and throws like toISOString for an invalid one', () => {
    expect(isoSeconds(null)).toBeNull();
    expect(isoSeconds(undefined)).toBeNull();
    expect(() => isoSeconds(new Date(NaN))).toThrow(RangeError);
  });
});
