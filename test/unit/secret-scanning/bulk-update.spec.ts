/**
 * Bulk alert updates by filter (the workflow task secret-scanning.bulkUpdateAlerts): the list's filter and access,
 * PATCH's rules per alert, repeatable, failures reported per alert.
 */
import type { AccountEntity, RepositoryEntity } from '../../../entities/identity';
import { SecretScanningAlertEntity } from '../../../entities/secret-scanning';
import { loadConfig } from '../../../src/config';
import type { RequestContext } from '../../../src/context';
import { ForbiddenError, NotFoundError, ValidationError } from '../../../src/errors/app-error';
import type { Finding } from '../../../src/services/secret-scanning/alert-types';
import { IdentityFixtures } from '../../fixtures/identity';
import { testContexts, TestContexts } from '../../helpers/context';
import { openTestDatabase, TestDatabase } from '../../helpers/db';

const finding = (secret: string, secretType: string, line: number): Finding => ({
  secretType,
  secretTypeDisplayName: secretType,
  provider: 'Test',
  providerSlug: 'test',
  secret,
  location: { type: 'commit', path: 'a.env', startLine: line, endLine: line, startColumn: 1, endColumn: secret.length, blobSha: 'b'.repeat(40), commitSha: 'c'.repeat(40) },
});

describe('secret scanning bulk alert updates', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  let contexts: TestContexts;
  let org: AccountEntity;
  let repo: RepositoryEntity;
  let other: RepositoryEntity;
  let adminCtx: RequestContext;
  let readerCtx: RequestContext;
  const updates = () => f.services.secretScanningAlertUpdates;
  const states = async (r: RepositoryEntity) =>
    (await db.dataSource.getRepository(SecretScanningAlertEntity).find({ where: { repositoryId: r.id }, order: { number: 'ASC' } })).map((a) => `${a.number}:${a.secretType}:${a.state}:${a.resolution ?? '-'}`);

  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
    contexts = testContexts(db.dataSource, f.services, loadConfig({ PUBLIC_URL: 'https://gw.example' }));
    org = await f.org('bulkorg');
    const admin = await f.user('bulkadmin');
    const reader = await f.user('bulkreader');
    await f.member(org, admin, 'admin');
    repo = await f.repo(org, { name: 'app', private: true, secretScanning: true });
    other = await f.repo(org, { name: 'other', private: true, secretScanning: true });
    await f.grant(repo, org, reader, 'read');
    adminCtx = await contexts.as(await f.classicToken(admin, ['repo']));
    readerCtx = await contexts.as(await f.classicToken(reader, ['repo']));
    const record = (r: RepositoryEntity, fd: Finding) => db.dataSource.transaction((m) => f.services.secretScanningFindings.recordFinding(m, r, fd));
    for (let i = 1; i <= 120; i++) await record(repo, finding(`AKIA${String(i).padStart(16, '0')}`, i % 2 ? 'aws_access_key_id' : 'github_personal_access_token', i));
    await record(other, finding('AKIAOTHER00000000001', 'aws_access_key_id', 1));
  });
  afterAll(() => db.drop());

  it('resolves exactly the alerts the filter matches, over more than one page, with the PATCH rules applied', async () => {
    const r = await updates().bulkUpdate(adminCtx, { owner: 'bulkorg', repo: 'app' }, { state: 'open', secretTypes: ['aws_access_key_id'] }, { state: 'resolved', resolution: 'revoked', resolutionComment: 'rotated in bulk' });
    expect(r).toEqual({ matched: 60, updated: 60, failed: [] });
    const s = await states(repo);
    expect(s.filter((x) => x.endsWith(':resolved:revoked'))).toHaveLength(60);
    expect(s.filter((x) => x.includes(':aws_access_key_id:open'))).toHaveLength(0);
    expect(s.filter((x) => x.includes(':github_personal_access_token:open'))).toHaveLength(60);
    expect(await states(other)).toEqual(['1:aws_access_key_id:open:-']);
  });

  it('running it again changes nothing (nothing open matches any more)', async () => {
    const before = await states(repo);
    const r = await updates().bulkUpdate(adminCtx, { owner: 'bulkorg', repo: 'app' }, { state: 'open', secretTypes: ['aws_access_key_id'] }, { state: 'resolved', resolution: 'revoked' });
    expect(r).toEqual({ matched: 0, updated: 0, failed: [] });
    expect(await states(repo)).toEqual(before);
  });

  it('organization-wide by filter', async () => {
    const r = await updates().bulkUpdate(adminCtx, { owner: 'bulkorg' }, { state: 'open', secretTypes: ['aws_access_key_id'] }, { state: 'resolved', resolution: 'false_positive' });
    expect(r).toEqual({ matched: 1, updated: 1, failed: [] });
    expect(await states(other)).toEqual(['1:aws_access_key_id:resolved:false_positive']);
  });

  it('an update PATCH refuses (resolved without a resolution) fails the whole task before any change', async () => {
    const before = await states(repo);
    await expect(updates().bulkUpdate(adminCtx, { owner: 'bulkorg', repo: 'app' }, { state: 'open' }, { state: 'resolved' })).rejects.toBeInstanceOf(ValidationError);
    expect(await states(repo)).toEqual(before);
  });

  it('an alert the update does not apply to is reported; the others are still updated (no stop partway)', async () => {
    const r = await db.dataSource.transaction((m) => f.services.secretScanningFindings.recordFinding(m, other, finding('AKIAOTHER00000000002', 'github_personal_access_token', 2)));
    const r2 = await db.dataSource.transaction((m) => f.services.secretScanningFindings.recordFinding(m, other, finding('AKIAOTHER00000000003', 'github_personal_access_token', 3)));
    // The first is already resolved with a comment: PATCH refuses to change a comment without the state changing.
    await updates().updateAlert(adminCtx, other, r.alert.number, { state: 'resolved', resolution: 'used_in_tests', resolutionComment: 'kept' });
    const res = await updates().bulkUpdate(adminCtx, { owner: 'bulkorg', repo: 'other' }, { secretTypes: ['github_personal_access_token'] }, { state: 'resolved', resolution: 'revoked', resolutionComment: 'bulk' });
    expect(res.matched).toBe(2);
    expect(res.updated + res.failed.length).toBe(2);
    const after = await db.dataSource.getRepository(SecretScanningAlertEntity).findOneByOrFail({ id: r2.alert.id });
    expect([after.state, after.resolution]).toEqual(['resolved', 'revoked']);
  });

  it('a reader may not use alerts: 403 as the list answers, nothing changes', async () => {
    const before = await states(repo);
    await expect(updates().bulkUpdate(readerCtx, { owner: 'bulkorg', repo: 'app' }, { state: 'open' }, { state: 'resolved', resolution: 'revoked' })).rejects.toBeInstanceOf(ForbiddenError);
    expect(await states(repo)).toEqual(before);
  });

  it('an unknown repository is not found; a bad target is a validation error', async () => {
    await expect(updates().bulkUpdate(adminCtx, { owner: 'bulkorg', repo: 'nope' }, {}, { state: 'open' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(updates().bulkUpdate(adminCtx, { owner: 42 } as never, {}, { state: 'open' })).rejects.toBeInstanceOf(ValidationError);
  });
});
