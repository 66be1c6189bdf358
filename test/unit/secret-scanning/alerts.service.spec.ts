/**
 * The secret scanning alert services on a real database: numbering, findings, filters, paging, update rules, scan history.
 */
import { github } from '../../helpers/github-answer';
import type { AccountEntity, RepositoryEntity } from '../../../entities/identity';
import { loadConfig } from '../../../src/config';
import type { RequestContext } from '../../../src/context';
import { ForbiddenError, NotFoundError, ValidationError } from '../../../src/errors/app-error';
import type { AlertUpdate, Finding } from '../../../src/services/secret-scanning/alert-types';
import { IdentityFixtures } from '../../fixtures/identity';
import { testContexts, TestContexts } from '../../helpers/context';
import { openTestDatabase, TestDatabase } from '../../helpers/db';

const finding = (secret: string, over: Partial<Finding> = {}, line = 1): Finding => ({
  secretType: 'aws_access_key_id',
  secretTypeDisplayName: 'AWS Access Key ID',
  provider: 'Amazon AWS',
  providerSlug: 'amazon_aws',
  secret,
  location: { type: 'commit', path: 'config/.env', startLine: line, endLine: line, startColumn: 1, endColumn: secret.length, blobSha: 'b'.repeat(40), commitSha: 'c'.repeat(40) },
  ...over,
});

/** A REST-style body (snake_case keys) -> the service's AlertUpdate; only the keys the body has. */
const upd = (body: Record<string, unknown>): AlertUpdate =>
  Object.fromEntries(Object.entries(body).map(([k, v]) => [k === 'resolution_comment' ? 'resolutionComment' : k, v])) as AlertUpdate;

describe('secret scanning alert services', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  let org: AccountEntity;
  let repo: RepositoryEntity;
  let other: RepositoryEntity;
  let pub: RepositoryEntity;
  let adminCtx: RequestContext;
  let writer: AccountEntity;
  let writerCtx: RequestContext;
  let secManagerCtx: RequestContext;
  let repoAdminCtx: RequestContext;
  let reader: AccountEntity;

  let contexts: TestContexts;
  const ctxFor = (token?: string) => contexts.as(token);
  const named = (owner: string, name: string) => contexts.repository(owner, name);
  const orgNamed = (login: string) => contexts.account(login);
  const record = (r: RepositoryEntity, fd: Finding) => db.dataSource.transaction((m) => f.services.secretScanningFindings.recordFinding(m, r, fd));
  const svc = () => f.services.secretScanningAlerts;
  const updates = () => f.services.secretScanningAlertUpdates;

  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
    contexts = testContexts(db.dataSource, f.services, loadConfig({ PUBLIC_URL: 'https://gw.example' }));
    org = await f.org('ssorg');
    const admin = await f.user('ssadmin');
    const sec = await f.user('sssec');
    writer = await f.user('sswriter');
    reader = await f.user('ssreader');
    const repoAdmin = await f.user('ssrepoadmin');
    await f.member(org, admin, 'admin');
    await f.member(org, sec, 'security_manager');
    repo = await f.repo(org, { name: 'app', private: true, secretScanning: true });
    other = await f.repo(org, { name: 'other', private: true, secretScanning: true });
    pub = await f.repo(org, { name: 'site', private: false, secretScanning: true });
    await f.grant(repo, org, writer, 'write');
    await f.grant(repo, org, reader, 'read');
    await f.grant(repo, org, repoAdmin, 'admin');
    adminCtx = await ctxFor(await f.classicToken(admin, ['repo']));
    writerCtx = await ctxFor(await f.classicToken(writer, ['repo']));
    secManagerCtx = await ctxFor(await f.classicToken(sec, ['security_events']));
    repoAdminCtx = await ctxFor(await f.classicToken(repoAdmin, ['repo']));
  });
  afterAll(() => db.drop());

  it('numbers alerts per repository, adds locations for a known secret, derives multi_repo and publicly_leaked', async () => {
    const a1 = await record(repo, finding('AKIA1111111111111111'));
    const a2 = await record(repo, finding('AKIA2222222222222222', {}, 2));
    expect([a1.alert.number, a2.alert.number]).toEqual([1, 2]);
    expect(a1.created && a2.created).toBe(true);
    const again = await record(repo, finding('AKIA1111111111111111', {}, 9));
    expect(again).toMatchObject({ created: false, newLocation: true });
    expect(again.alert.number).toBe(1);
    expect(again.alert.locationsCount).toBe(2);
    const dup = await record(repo, finding('AKIA1111111111111111', {}, 9));
    expect(dup.newLocation).toBe(false);

    const o1 = await record(other, finding('AKIA1111111111111111'));
    expect(o1.alert.number).toBe(1); // numbered per repository
    expect(o1.alert.multiRepo).toBe(true);
    const { alert: back } = await svc().getAlert(adminCtx, await named('ssorg', 'app'), 1);
    expect(back.multiRepo).toBe(true);
    expect(back.publiclyLeaked).toBe(false);

    await record(pub, finding('AKIA2222222222222222'));
    const { alert: leaked } = await svc().getAlert(adminCtx, await named('ssorg', 'app'), 2);
    expect(leaked.publiclyLeaked).toBe(true);
  });

  it('lists newest first with filters; mutually exclusive filters and bad enums are 422', async () => {
    await record(repo, finding('xoxb-123-456-abcdefABCDEF', { secretType: 'slack_api_token', secretTypeDisplayName: 'Slack API Token', provider: 'Slack', providerSlug: 'slack' }, 3));
    const all = await svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), {}, {}, { mode: 'page', page: 1, perPage: 30 });
    expect(all.page.items.map((a) => a.number)).toEqual([3, 2, 1]);
    const asc = await svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), {}, { direction: 'asc' }, { mode: 'page', page: 1, perPage: 30 });
    expect(asc.page.items.map((a) => a.number)).toEqual([1, 2, 3]);
    const slack = await svc().listRepositoryAlerts(adminCtx, await named('SSORG', 'APP'), { providers: ['slack'] }, {}, { mode: 'page', page: 1, perPage: 30 });
    expect(slack.page.items.map((a) => a.secretType)).toEqual(['slack_api_token']);
    const notAws = await svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), { excludeSecretTypes: ['aws_access_key_id'] }, {}, { mode: 'page', page: 1, perPage: 30 });
    expect(notAws.page.items.map((a) => a.number)).toEqual([3]);
    const leaked = await svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), { isPubliclyLeaked: true }, {}, { mode: 'page', page: 1, perPage: 30 });
    expect(leaked.page.items.map((a) => a.number)).toEqual([2]);
    await expect(svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), { secretTypes: ['a'], excludeSecretTypes: ['b'] }, {}, { mode: 'page', page: 1, perPage: 30 })).rejects.toThrow(ValidationError);
    await expect(svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), { providers: ['a'], excludeProviders: ['b'] }, {}, { mode: 'page', page: 1, perPage: 30 })).rejects.toThrow(ValidationError);
    await expect(svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), { state: 'closed' }, {}, { mode: 'page', page: 1, perPage: 30 })).rejects.toThrow(ValidationError);
    await expect(svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), {}, { sort: 'name' }, { mode: 'page', page: 1, perPage: 30 })).rejects.toThrow(ValidationError);
  });

  it('pages by page and by cursor over the same order', async () => {
    const p1 = await svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), {}, {}, { mode: 'page', page: 1, perPage: 2 });
    expect(p1.page.items.map((a) => a.number)).toEqual([3, 2]);
    expect(p1.page.hasNextPage).toBe(true);
    expect(await p1.page.lastPage!()).toBe(2);
    const c1 = await svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), {}, {}, { mode: 'cursor', first: 2 });
    const c2 = await svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), {}, {}, { mode: 'cursor', first: 2, after: c1.page.cursorOf(c1.page.items[1]) });
    expect(c2.page.items.map((a) => a.number)).toEqual([1]);
    expect(c2.page.hasNextPage).toBe(false);
    const back = await svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), {}, {}, { mode: 'cursor', last: 2, before: c2.page.cursorOf(c2.page.items[0]) });
    expect(back.page.items.map((a) => a.number)).toEqual([3, 2]);
  });

  it('organization list: owners and security managers; members get 403, outsiders 404', async () => {
    const list = await svc().listOrganizationAlerts(secManagerCtx, await orgNamed('ssorg'), {}, {}, { mode: 'page', page: 1, perPage: 100 });
    expect(list.page.items.length).toBe(5);
    await expect(svc().listOrganizationAlerts(writerCtx, await orgNamed('ssorg'), {}, {}, { mode: 'page', page: 1, perPage: 100 })).rejects.toThrow(NotFoundError);
    const member = await f.user();
    await f.member(org, member, 'member');
    await expect(svc().listOrganizationAlerts(await ctxFor(await f.classicToken(member, ['repo'])), await orgNamed('ssorg'), {}, {}, { mode: 'page', page: 1, perPage: 100 })).rejects.toThrow(ForbiddenError);
  });

  it('repository endpoints: writers who see the repository get 403, outsiders 404, secret scanning off 404', async () => {
    await expect(svc().getAlert(writerCtx, await named('ssorg', 'app'), 1)).rejects.toThrow(ForbiddenError);
    await expect(svc().getAlert(await ctxFor(), await named('ssorg', 'app'), 1)).rejects.toThrow(NotFoundError);
    await expect(svc().getAlert(adminCtx, await named('ssorg', 'app'), 999)).rejects.toThrow(NotFoundError);
    const off = await f.repo(org, { name: 'off', private: true });
    await expect(svc().listRepositoryAlerts(adminCtx, await named('ssorg', off.name), {}, {}, { mode: 'page', page: 1, perPage: 30 })).rejects.toThrow(NotFoundError);
  });

  describe('update rules', () => {
    it('rule 1: resolution required when resolving; state must match', async () => {
      await expect(github(updates().updateAlert(adminCtx, await named('ssorg', 'app'), 1, upd({ state: 'resolved' })))).rejects.toMatchObject({ status: 422 });
      await expect(github(updates().updateAlert(adminCtx, await named('ssorg', 'app'), 1, upd({ state: 'open', resolution: 'revoked' })))).rejects.toMatchObject({ status: 422 });
      await expect(github(updates().updateAlert(adminCtx, await named('ssorg', 'app'), 1, upd({})))).rejects.toMatchObject({ status: 422 });
      await expect(github(updates().updateAlert(adminCtx, await named('ssorg', 'app'), 1, upd({ state: 'resolved', resolution: 'nope' })))).rejects.toMatchObject({ status: 422 });
    });

    it('resolves with resolver and time; rule 3: unchanged resolution or an invalid comment is 400', async () => {
      const { alert } = await updates().updateAlert(adminCtx, await named('ssorg', 'app'), 1, upd({ state: 'resolved', resolution: 'revoked', resolution_comment: 'rotated' }));
      expect(alert).toMatchObject({ state: 'resolved', resolution: 'revoked', resolutionComment: 'rotated' });
      expect(alert.resolvedAt).toBeInstanceOf(Date);
      expect(alert.resolvedById).not.toBeNull();
      await expect(github(updates().updateAlert(adminCtx, await named('ssorg', 'app'), 1, upd({ state: 'resolved', resolution: 'revoked' })))).rejects.toMatchObject({ status: 400 });
      await expect(github(updates().updateAlert(adminCtx, await named('ssorg', 'app'), 2, upd({ state: 'resolved', resolution: 'revoked', resolution_comment: 'x'.repeat(281) })))).rejects.toMatchObject({ status: 400 });
    });

    it('rule 2: the resolution comment cannot be changed or deleted; reopening clears resolution, resolved_at, resolved_by', async () => {
      await expect(github(updates().updateAlert(adminCtx, await named('ssorg', 'app'), 1, upd({ state: 'resolved', resolution: 'false_positive', resolution_comment: 'other' })))).rejects.toMatchObject({ status: 400 });
      await expect(github(updates().updateAlert(adminCtx, await named('ssorg', 'app'), 1, upd({ state: 'open', resolution_comment: null })))).rejects.toMatchObject({ status: 400 });
      const { alert } = await updates().updateAlert(adminCtx, await named('ssorg', 'app'), 1, upd({ state: 'open' }));
      expect(alert).toMatchObject({ state: 'open', resolution: null, resolvedAt: null, resolvedById: null, resolutionComment: 'rotated' });
      await expect(github(updates().updateAlert(adminCtx, await named('ssorg', 'app'), 1, upd({ state: 'open' })))).rejects.toMatchObject({ status: 400 });
    });

    it('rule 5: assignee (needs write access) and validity do not move state', async () => {
      const { alert } = await updates().updateAlert(adminCtx, await named('ssorg', 'app'), 2, upd({ assignee: 'SSWRITER', validity: 'active' }));
      expect(alert).toMatchObject({ state: 'open', assignedToId: writer.id, validity: 'active' });
      await expect(github(updates().updateAlert(adminCtx, await named('ssorg', 'app'), 2, upd({ assignee: reader.login })))).rejects.toMatchObject({ status: 422 });
      await expect(github(updates().updateAlert(adminCtx, await named('ssorg', 'app'), 2, upd({ assignee: 'nobody-here' })))).rejects.toMatchObject({ status: 422 });
      await expect(github(updates().updateAlert(adminCtx, await named('ssorg', 'app'), 2, upd({ validity: 'unknown' })))).rejects.toMatchObject({ status: 422 });
      const cleared = await updates().updateAlert(adminCtx, await named('ssorg', 'app'), 2, upd({ assignee: null, validity: null }));
      expect(cleared.alert).toMatchObject({ assignedToId: null, validity: 'unknown' });
      const assigned = await svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), { assignee: '*' }, {}, { mode: 'page', page: 1, perPage: 30 });
      expect(assigned.page.items).toHaveLength(0);
    });

    it('rule 4: with delegated alert dismissal only org owners and security managers may close', async () => {
      await f.services.identity.updateRepositorySecuritySettings(adminCtx, await named('ssorg', 'app'), { delegatedAlertDismissal: true });
      await expect(updates().updateAlert(repoAdminCtx, await named('ssorg', 'app'), 3, upd({ state: 'resolved', resolution: 'wont_fix' }))).rejects.toThrow(ForbiddenError);
      // triage that does not close is still allowed
      await updates().updateAlert(repoAdminCtx, await named('ssorg', 'app'), 3, upd({ validity: 'inactive' }));
      const { alert } = await updates().updateAlert(secManagerCtx, await named('ssorg', 'app'), 3, upd({ state: 'resolved', resolution: 'wont_fix' }));
      expect(alert.state).toBe('resolved');
      await f.services.identity.updateRepositorySecuritySettings(adminCtx, await named('ssorg', 'app'), { delegatedAlertDismissal: false });
    });

    it('sort=updated follows the last update or resolution', async () => {
      const list = await svc().listRepositoryAlerts(adminCtx, await named('ssorg', 'app'), {}, { sort: 'updated' }, { mode: 'page', page: 1, perPage: 30 });
      expect(list.page.items[0].number).toBe(3);
    });
  });

  it('scan history: advanced security required; latest scan per kind and type', async () => {
    await expect(f.services.secretScanningScans.scanHistory(adminCtx, await named('ssorg', 'app'))).rejects.toThrow(NotFoundError);
    const adv = await f.repo(org, { name: 'adv', private: true, secretScanning: true, advancedSecurity: true });
    const m = db.dataSource.manager;
    await f.services.secretScanningScans.recordScan(m, { repositoryId: adv.id, kind: 'incremental', type: 'git', completedAt: new Date('2026-01-01T00:00:00Z') });
    await f.services.secretScanningScans.recordScan(m, { repositoryId: adv.id, kind: 'incremental', type: 'git', completedAt: new Date('2026-01-02T00:00:00Z') });
    await f.services.secretScanningScans.recordScan(m, { repositoryId: adv.id, kind: 'incremental', type: 'issue', completedAt: new Date('2026-01-03T00:00:00Z') });
    await f.services.secretScanningScans.recordScan(m, { repositoryId: adv.id, kind: 'backfill', type: 'git', status: 'in_progress', startedAt: new Date() });
    const h = await f.services.secretScanningScans.scanHistory(adminCtx, await named('ssorg', 'adv'));
    expect(h.scans.incremental.map((s) => [s.type, s.completedAt?.toISOString()])).toEqual([
      ['issue', '2026-01-03T00:00:00.000Z'],
      ['git', '2026-01-02T00:00:00.000Z'],
    ]);
    expect(h.scans.backfill.map((s) => s.status)).toEqual(['in_progress']);
    expect(h.scans.pattern_update).toEqual([]);
  });
});
