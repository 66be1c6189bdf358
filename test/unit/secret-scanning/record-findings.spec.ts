/**
 * SecretScanningFindingService.recordFindings (a push's findings in a few statements) against recordFinding called
 * for each finding in turn: the same alerts (numbers, flags, counts, first location), the same locations and the same
 * results, from the same starting rows — new and existing secrets, a secret found twice, the same place twice, URL
 * locations, a bypass, a secret another repository of the owner has, one a public repository has, and a public
 * repository recording.
 */
import type { AccountEntity, RepositoryEntity } from '../../../entities/identity';
import { SecretScanningAlertEntity, SecretScanningLocationEntity } from '../../../entities/secret-scanning';
import type { Finding } from '../../../src/services/secret-scanning/alert-types';
import { IdentityFixtures } from '../../fixtures/identity';
import { openTestDatabase, TestDatabase } from '../../helpers/db';

type Mode = 'one by one' | 'batch';

describe('recordFindings records what recordFinding records, finding by finding', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  const before = new Date('2026-11-27T12:00:00.000Z');
  const now = new Date('2026-11-28T12:00:00.000Z');

  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
  });
  afterAll(() => db.drop());

  const commit = (secret: string, line: number, path = 'a.env'): Finding => ({
    secretType: 'github_personal_access_token',
    secretTypeDisplayName: 'GitHub Personal Access Token',
    provider: 'GitHub',
    providerSlug: 'github',
    secret,
    location: { type: 'commit', path, startLine: line, endLine: line, startColumn: 1, endColumn: secret.length, blobSha: 'b'.repeat(40), commitSha: 'c'.repeat(40) },
  });
  const comment = (secret: string, n: number): Finding => ({ ...commit(secret, 1), location: { type: 'issue_comment', url: `https://example.test/issues/${n}` } });

  /** One owner's repositories and starting rows, then `findings(tag)` recorded in `into` the given way; rows normalised. */
  async function scenario(tag: string, mode: Mode, intoPublic: boolean) {
    const s = (x: string) => `ghp_${tag}${x}`.padEnd(40, '0');
    const org: AccountEntity = await f.org(`rf-${tag}`);
    const repo = await f.repo(org, { name: 'app', private: !intoPublic, secretScanning: true });
    const sibling = await f.repo(org, { name: 'sib', private: true, secretScanning: true });
    const open = await f.repo(org, { name: 'open', private: false, secretScanning: true });
    const record = (r: RepositoryEntity, fd: Finding) => db.dataSource.transaction((m) => f.services.secretScanningFindings.recordFinding(m, r, fd, before));
    await record(repo, commit(s('old1'), 1)); // existing alert, existing location
    await record(repo, comment(s('old2'), 1)); // existing alert without a commit-form location
    await record(sibling, commit(s('shared'), 1)); // the same secret in another repository: multi_repo
    await record(open, commit(s('public'), 1)); // the same secret in a public repository: publicly leaked
    const findings: Finding[] = [
      commit(s('new1'), 1),
      commit(s('old1'), 1), // the place it already has
      commit(s('new1'), 2), // the new secret again
      comment(s('old2'), 2),
      commit(s('old2'), 3), // its first commit-form location
      commit(s('shared'), 4),
      comment(s('new2'), 5), // a URL location first
      commit(s('new2'), 6),
      commit(s('public'), 7),
      { ...commit(s('bypassed'), 8), bypass: { byId: org.id, at: now, reason: 'used_in_tests' } },
      commit(s('new1'), 2), // the same place twice in one call
      commit(s('old1'), 9),
    ];
    const results = await db.dataSource.transaction(async (m) => {
      const svc = f.services.secretScanningFindings;
      if (mode === 'batch') return svc.recordFindings(m, repo, findings, now);
      const out = [];
      for (const fd of findings) out.push(await svc.recordFinding(m, repo, fd, now));
      return out;
    });
    const norm = (x: string) => x.replace(`ghp_${tag}`, 'ghp_');
    const alerts = await db.dataSource.getRepository(SecretScanningAlertEntity).find({ where: { ownerId: org.id }, order: { id: 'ASC' } });
    const locs = await db.dataSource.getRepository(SecretScanningLocationEntity).find({ order: { id: 'ASC' } });
    const placeOf = new Map(locs.map((l) => [l.id, l.placeKey]));
    const repoName = new Map([repo, sibling, open].map((r) => [r.id, r.name]));
    const alertRows = alerts.map((a) => ({
      repo: repoName.get(a.repositoryId),
      number: a.number,
      secret: norm(a.secret),
      state: a.state,
      resolution: a.resolution,
      resolvedAt: a.resolvedAt?.toISOString() ?? null,
      publiclyLeaked: a.publiclyLeaked,
      multiRepo: a.multiRepo,
      bypassed: a.pushProtectionBypassed,
      locationsCount: a.locationsCount,
      firstLocation: a.firstLocationId === null ? null : placeOf.get(a.firstLocationId),
      updatedAt: a.updatedAt.toISOString(),
    }));
    const alertIds = new Set(alerts.map((a) => a.id));
    const numberOf = new Map(alerts.map((a) => [a.id, `${repoName.get(a.repositoryId)}#${a.number}`]));
    const locationRows = locs.filter((l) => alertIds.has(l.alertId)).map((l) => ({ alert: numberOf.get(l.alertId), type: l.type, place: l.placeKey, path: l.path, line: l.startLine, url: l.url }));
    const resultRows = results.map((r) => ({ alert: numberOf.get(r.alert.id), created: r.created, newLocation: r.newLocation }));
    return { alertRows, locationRows, resultRows };
  }

  it.each([
    ['private', false],
    ['public', true],
  ])('into a %s repository', async (_, intoPublic) => {
    const t = intoPublic ? 'p' : 'q';
    const one = await scenario(`${t}1`, 'one by one', intoPublic);
    const batch = await scenario(`${t}2`, 'batch', intoPublic);
    expect(one.resultRows.filter((r) => r.created)).toHaveLength(5);
    expect(one.alertRows.some((a) => a.multiRepo)).toBe(true);
    expect(one.alertRows.some((a) => a.publiclyLeaked && a.repo === 'app')).toBe(true);
    expect(batch.resultRows).toEqual(one.resultRows);
    expect(batch.alertRows).toEqual(one.alertRows);
    // Place keys hash the location (the URL holds no tag), so the locations compare as they are.
    expect(batch.locationRows).toEqual(one.locationRows);
  });
});
