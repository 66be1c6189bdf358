/**
 * Concurrency on one alert (issue 6 item 1): many concurrent PATCH /repos/{o}/{r}/secret-scanning/alerts/{n}
 * against the real server. Every read-modify-write must be atomic: no 5xx, a consistent row, the first
 * resolution comment kept for good, and exactly one winner per state transition.
 * Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */
import type { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { RepositoryCollaboratorEntity, RepositoryEntity as RepositoryRow } from '../../entities/identity';
import { SecretScanningAlertEntity, SecretScanningLocationEntity } from '../../entities/secret-scanning';
import { contextFor } from '../../src/context';
import { SubmitContentDocument } from '../__generated__/graphql';
import { IdentityFixtures } from '../fixtures/identity';
import { SecretScanningFixtures } from '../fixtures/secret-scanning';
import { gqlDoc, startTestApp, TestApp } from '../helpers/app';
import { fakeSecrets, fileOf } from '../fixtures/fake-secrets';

type Body = Record<string, unknown>;
interface Answer {
  body: Body;
  status: number;
  json: Record<string, unknown>;
}

const RESOLUTIONS = ['false_positive', 'wont_fix', 'revoked', 'used_in_tests'] as const;

describe('concurrent writes on one alert', () => {
  let t: TestApp;
  let f: IdentityFixtures;
  let ss: SecretScanningFixtures;
  let repo: RepositoryEntity;
  let admin: AccountEntity;
  let writer: AccountEntity;
  let token: string;
  /** Open alert numbers, used one per test. */
  let open: number[];

  beforeAll(async () => {
    t = await startTestApp();
    f = new IdentityFixtures(t.db.dataSource);
    ss = new SecretScanningFixtures(t.db.dataSource);
    const org = await f.org('acme');
    admin = await f.user('acme-admin');
    writer = await f.user('acme-writer');
    await f.member(org, admin, 'admin');
    repo = await f.services.identity.createRepository(t.db.dataSource.manager, { owner: 'acme', name: 'api', private: true, secretScanning: true });
    await f.grant(repo, org, writer, 'write');
    token = await f.classicToken(admin, ['repo']);
    const seeded = await ss.alerts(repo, 12);
    open = seeded.filter((a) => a.state === 'open').map((a) => a.number);
  }, 60_000);
  afterAll(() => t.close());

  async function patch(number: number, body: Body): Promise<Answer> {
    const res = await fetch(`${t.url}/repos/acme/api/secret-scanning/alerts/${number}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { body, status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  const row = (number: number) =>
    t.db.dataSource.manager.getRepository(SecretScanningAlertEntity).findOneOrFail({ where: { repositoryId: repo.id, number } });

  function expectConsistent(a: SecretScanningAlertEntity) {
    if (a.state === 'resolved') {
      expect(a.resolution).not.toBeNull();
      expect(a.resolvedAt).not.toBeNull();
      expect(a.resolvedById).toBe(admin.id);
    } else {
      expect(a.state).toBe('open');
      expect({ resolution: a.resolution, resolvedAt: a.resolvedAt, resolvedById: a.resolvedById }).toEqual({ resolution: null, resolvedAt: null, resolvedById: null });
    }
  }

  it('100 concurrent mixed PATCHes: no 5xx, consistent row, the first resolution comment kept, answers agree', async () => {
    const number = open[0];
    const bodies: Body[] = [];
    for (let i = 0; i < 100; i++) {
      switch (i % 6) {
        case 0:
        case 1:
          bodies.push({ state: 'resolved', resolution: RESOLUTIONS[i % 4], resolution_comment: `comment ${i}` });
          break;
        case 2:
          bodies.push({ state: 'resolved', resolution: RESOLUTIONS[(i >> 1) % 4] });
          break;
        case 3:
          bodies.push({ state: 'open' });
          break;
        case 4:
          bodies.push({ assignee: i % 12 === 4 ? writer.login : null });
          break;
        default:
          bodies.push({ validity: [null, 'active', 'inactive'][i % 3] });
      }
    }
    const answers = await Promise.all(bodies.map((b) => patch(number, b)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.every((s) => s === 200 || s === 400)).toBe(true);
    // Assignee and validity changes never conflict with anything.
    for (const a of answers.filter((x) => !('state' in x.body))) expect(a.status).toBe(200);

    const ok = answers.filter((a) => a.status === 200);
    // Each answer shows the request's own write (read back inside the same atomic step).
    for (const a of ok) {
      if (a.body.state === 'resolved') expect({ state: a.json.state, resolution: a.json.resolution }).toEqual({ state: 'resolved', resolution: a.body.resolution });
      if (a.body.state === 'open') expect({ state: a.json.state, resolution: a.json.resolution }).toEqual({ state: 'open', resolution: null });
      if ('assignee' in a.body) expect((a.json.assigned_to as { login?: string } | null)?.login ?? null).toBe(a.body.assignee);
      if ('validity' in a.body) expect(a.json.validity).toBe(a.body.validity ?? 'unknown');
    }
    // A resolution comment, once set, never changes: every 200 answer carries at most one comment.
    const comments = new Set(ok.map((a) => a.json.resolution_comment).filter((c) => c !== null));
    expect(comments.size).toBe(1);
    const [kept] = [...comments];
    // ... the comment of a successful resolve that carried it; every successful resolve with a comment carried that one.
    expect(ok.some((a) => a.body.resolution_comment === kept)).toBe(true);
    for (const a of ok.filter((x) => typeof x.body.resolution_comment === 'string')) expect(a.body.resolution_comment).toBe(kept);

    const stored = await row(number);
    expect(stored.resolutionComment).toBe(kept);
    expectConsistent(stored);
  });

  it('a burst of identical transitions has exactly one winner, every time', async () => {
    const number = open[1];
    const N = 20;
    for (let round = 0; round < 4; round++) {
      const resolution = RESOLUTIONS[round];
      const resolve = await Promise.all(Array.from({ length: N }, () => patch(number, { state: 'resolved', resolution })));
      expect(resolve.map((a) => a.status).sort()).toEqual([200, ...Array(N - 1).fill(400)]);
      let stored = await row(number);
      expect({ state: stored.state, resolution: stored.resolution }).toEqual({ state: 'resolved', resolution });
      expectConsistent(stored);

      const reopen = await Promise.all(Array.from({ length: N }, () => patch(number, { state: 'open' })));
      expect(reopen.map((a) => a.status).sort()).toEqual([200, ...Array(N - 1).fill(400)]);
      stored = await row(number);
      expect(stored.state).toBe('open');
      expectConsistent(stored);
    }
  });

  it('concurrent resolves with different comments: one comment is stored, all others are refused', async () => {
    const number = open[2];
    // Different resolutions, so each request is a real change; only the comment rule decides.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => patch(number, { state: 'resolved', resolution: RESOLUTIONS[i % 4], resolution_comment: `c${i}` })),
    );
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    const stored = await row(number);
    expect(stored.resolutionComment).toBe(ok[0].body.resolution_comment);
    expect(stored.resolution).toBe(ok[0].body.resolution);
    expectConsistent(stored);
  });

  it('concurrent findings of one secret: one alert, and locations_count counts every location', async () => {
    const secret = fakeSecrets.githubPat();
    const N = 20;
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        gqlDoc(
          t.url,
          SubmitContentDocument,
          { input: { repository: 'acme/api', locationType: 'ISSUE_COMMENT', url: `https://example.test/acme/api/issues/1#issuecomment-${i}`, content: fileOf([secret.line]) } },
          token,
        ),
      ),
    );
    for (const a of answers) expect([a.status, a.body.errors]).toEqual([200, undefined]);
    const touched = answers.map((a) => a.body.data!.submitContent.alerts![0]);
    expect(touched.filter((x) => x.created)).toHaveLength(1);
    expect(new Set(touched.map((x) => x.number)).size).toBe(1);
    const alert = await row(touched[0].number);
    const locations = await t.db.dataSource.manager.getRepository(SecretScanningLocationEntity).count({ where: { alertId: alert.id } });
    expect([alert.locationsCount, locations]).toEqual([N, N]);
  });

  it('concurrent security-settings changes of different fields all stay (service level)', async () => {
    const { deps } = t.app;
    const ctx = contextFor(deps, 'settings', { kind: 'user', user: admin, credential: { type: 'internal' } });
    const target = await f.services.identity.createRepository(t.db.dataSource.manager, { owner: 'acme', name: 'settings', private: true });
    // Each call turns on one field; computed from a stale read, a call would turn the others back off.
    const inputs = Array.from({ length: 24 }, (_, i) =>
      [{ secretScanning: true }, { advancedSecurity: true }, { delegatedAlertDismissal: true }][i % 3],
    );
    const repo = await deps.services.identity.findRepository(ctx, 'acme', 'settings');
    const results = await Promise.allSettled(inputs.map((input) => deps.services.identity.updateRepositorySecuritySettings(ctx, repo, input)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const stored = await t.db.dataSource.manager.getRepository(RepositoryRow).findOneByOrFail({ id: target.id });
    expect({ secretScanning: stored.secretScanning, advancedSecurity: stored.advancedSecurity, delegatedAlertDismissal: stored.delegatedAlertDismissal }).toEqual({
      secretScanning: true,
      advancedSecurity: true,
      delegatedAlertDismissal: true,
    });
  });

  it('concurrent grants of one user on one repository: no conflict error, one row (service level)', async () => {
    const target = await f.services.identity.createRepository(t.db.dataSource.manager, { owner: 'acme', name: 'grants', private: true });
    const someone = await f.user('acme-someone');
    const permissions = ['read', 'write', 'admin'] as const;
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => t.app.deps.services.identity.grant(t.db.dataSource.manager, { repo: 'acme/grants', user: someone.login, permission: permissions[i % 3] })),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const rows = await t.db.dataSource.manager.getRepository(RepositoryCollaboratorEntity).find({ where: { repositoryId: target.id, userId: someone.id } });
    expect(rows).toHaveLength(1);
  });
});
