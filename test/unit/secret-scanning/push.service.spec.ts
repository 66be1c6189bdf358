/**
 * SecretScanningPushService on a real database (in-memory SQLite, or PostgreSQL with DATABASE_URL) with the
 * real detector: pushes become alerts and locations, push protection blocks and bypasses, other content,
 * rescans, and the access rules. Contexts are built from real tokens, as a request would be.
 */
import { statusOf } from '../../helpers/github-answer';
import { In } from 'typeorm';
import { AccountEntity, RepositoryEntity } from '../../../entities/identity';
import {
  PushProtectionPlaceholderEntity,
  SecretScanningAlertEntity,
  SecretScanningContentEntity,
  SecretScanningLocationEntity,
  SecretScanningScanEntity,
} from '../../../entities/secret-scanning';
import type { RequestContext } from '../../../src/context';
import { AppError, ForbiddenError, NotFoundError, UnauthenticatedError, ValidationError } from '../../../src/errors/app-error';
import { hashSecret } from '../../../src/services/secret-scanning/alert-findings';
import { secretTypeBySlug } from '../../../src/services/secret-scanning/detector';
import {
  BYPASS_TTL_MS,
  gitBlobSha,
  PLACEHOLDER_TTL_MS,
  PUSH_LIMITS,
  SubmitPushInput,
} from '../../../src/services/secret-scanning/push.service';
import { IdentityFixtures } from '../../fixtures/identity';
import { testContexts, TestContexts } from '../../helpers/context';
import { openTestDatabase, TestDatabase } from '../../helpers/db';
import { commitSha, FakeSecret, fakeRsaPrivateKey, fakeSecrets, fileOf, gitBlobId } from '../../fixtures/fake-secrets';

describe('SecretScanningPushService', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  let contexts: TestContexts;

  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
    contexts = testContexts(db.dataSource, f.services);
  });
  afterAll(() => db.drop());

  /** A fresh request context for a token (fresh loaders, like one request). */
  const as = (token?: string): Promise<RequestContext> => contexts.as(token);
  const named = (owner: string, name: string) => contexts.repository(owner, name);
  const push = () => f.services.secretScanningPush;

  const alertsOf = (repo: RepositoryEntity) =>
    db.dataSource.getRepository(SecretScanningAlertEntity).find({ where: { repositoryId: repo.id }, order: { number: 'ASC' } });
  const locationsOf = (alert: SecretScanningAlertEntity) =>
    db.dataSource.getRepository(SecretScanningLocationEntity).find({ where: { alertId: alert.id }, order: { id: 'ASC' } });
  const contentsOf = (repo: RepositoryEntity) =>
    db.dataSource.getRepository(SecretScanningContentEntity).find({ where: { repositoryId: repo.id }, order: { id: 'ASC' } });
  const scansOf = (repo: RepositoryEntity) =>
    db.dataSource.getRepository(SecretScanningScanEntity).find({ where: { repositoryId: repo.id }, order: { id: 'ASC' } });
  const placeholdersOf = (repo: RepositoryEntity) =>
    db.dataSource.getRepository(PushProtectionPlaceholderEntity).find({ where: { repositoryId: repo.id }, order: { id: 'ASC' } });
  const alertBySecret = async (repo: RepositoryEntity, secret: string) =>
    db.dataSource.getRepository(SecretScanningAlertEntity).findOneOrFail({ where: { repositoryId: repo.id, secretHash: hashSecret(secret) } });

  /** What a call throws (fails the test when it does not throw). */
  async function failure(p: Promise<unknown>): Promise<AppError> {
    const e = await p.then(
      () => undefined,
      (err: unknown) => err,
    );
    if (!e) throw new Error('expected the call to fail');
    return e as AppError;
  }

  interface World {
    org: AccountEntity;
    repo: RepositoryEntity;
    full: string;
    admin: AccountEntity;
    dev: AccountEntity;
    dev2: AccountEntity;
    reader: AccountEntity;
    outsider: AccountEntity;
    tokens: { admin: string; dev: string; dev2: string; reader: string; outsider: string };
  }

  /** An organization with an admin, two writers, a reader and an outsider, and one repository. */
  async function world(
    opts: { private?: boolean; secretScanning?: boolean; pushProtection?: boolean; advancedSecurity?: boolean; org?: AccountEntity } = {},
  ): Promise<World> {
    const org = opts.org ?? (await f.org());
    const repo = await f.repo(org, {
      private: opts.private ?? true,
      secretScanning: opts.secretScanning ?? true,
      pushProtection: opts.pushProtection ?? false,
      advancedSecurity: opts.advancedSecurity ?? false,
    });
    const [admin, dev, dev2, reader, outsider] = await Promise.all([f.user(), f.user(), f.user(), f.user(), f.user()]);
    await f.member(org, admin, 'admin');
    await f.member(org, dev, 'member');
    await f.member(org, dev2, 'member');
    await f.grant(repo, org, dev, 'write');
    await f.grant(repo, org, dev2, 'write');
    await f.grant(repo, org, reader, 'read');
    const tokens = {
      admin: await f.classicToken(admin, ['repo']),
      dev: await f.classicToken(dev, ['repo']),
      dev2: await f.classicToken(dev2, ['repo']),
      reader: await f.classicToken(reader, ['repo']),
      outsider: await f.classicToken(outsider, ['repo']),
    };
    return { org, repo, full: `${org.login}/${repo.name}`, admin, dev, dev2, reader, outsider, tokens };
  }

  /** Another repository of the same organization, with the same people. */
  async function sibling(w: World, opts: { private?: boolean; pushProtection?: boolean } = {}): Promise<RepositoryEntity> {
    const repo = await f.repo(w.org, { private: opts.private ?? true, secretScanning: true, pushProtection: opts.pushProtection ?? false });
    await f.grant(repo, w.org, w.dev, 'write');
    return repo;
  }

  const onePush = (repository: string, files: Array<{ path: string; content: string }>, sha = commitSha()): SubmitPushInput => ({
    repository,
    ref: 'refs/heads/main',
    commits: [{ sha, files }],
  });

  const secretFile = (...secrets: FakeSecret[]) => fileOf(['# settings', ...secrets.map((s) => s.line)]);

  // ------------------------------------------------------------------ pushes become alerts

  it('a push with secrets of many types creates one alert per secret, numbered 1..n, with exact commit locations', async () => {
    const w = await world();
    const secrets = Object.values(fakeSecrets).map((make) => make());
    const key = fakeRsaPrivateKey();
    const envFile = fileOf(['# settings', ...secrets.map((s) => s.line), ...key.lines]);
    const readme = '# Project\nNo secrets here.\n';
    const sha = commitSha();
    const res = await push().submitPush(await as(w.tokens.admin), onePush(w.full, [
      { path: 'config/app.env', content: envFile },
      { path: 'README.md', content: readme },
    ], sha));

    const expected = [...secrets.map((s) => ({ type: s.secretType, provider: s.providerSlug, secret: s.secret })), {
      type: key.secretType,
      provider: key.providerSlug,
      secret: key.secret,
    }];
    expect(expected.length).toBeGreaterThanOrEqual(8);
    expect(new Set(expected.map((e) => e.type)).size).toBe(expected.length);
    expect(res.blocked).toBe(false);
    expect(res.placeholders).toEqual([]);
    expect(res.repository.id).toBe(w.repo.id);
    expect(res.alerts).toEqual(expected.map((_, i) => ({ number: i + 1, created: true })));

    const alerts = await alertsOf(w.repo);
    expect(alerts.map((a) => a.number)).toEqual(expected.map((_, i) => i + 1));
    const blobSha = gitBlobId(envFile);
    for (const [i, a] of alerts.entries()) {
      const e = expected[i];
      const info = secretTypeBySlug(e.type)!;
      expect({
        secretType: a.secretType,
        providerSlug: a.providerSlug,
        provider: a.provider,
        displayName: a.secretTypeDisplayName,
        secret: a.secret,
        state: a.state,
        resolution: a.resolution,
        publiclyLeaked: a.publiclyLeaked,
        multiRepo: a.multiRepo,
        bypassed: a.pushProtectionBypassed,
        locationsCount: a.locationsCount,
      }).toEqual({
        secretType: e.type,
        providerSlug: e.provider,
        provider: info.provider,
        displayName: info.displayName,
        secret: e.secret,
        state: 'open',
        resolution: null,
        publiclyLeaked: false,
        multiRepo: false,
        bypassed: false,
        locationsCount: 1,
      });
      const [loc] = await locationsOf(a);
      expect(a.firstLocationId).toBe(loc.id);
      expect(loc).toMatchObject({ type: 'commit', path: 'config/app.env', blobSha, commitSha: sha, url: null });
      if (i < secrets.length) {
        // one secret per line: line i + 2 (after the comment line), columns 1-based and inclusive
        const s = secrets[i];
        expect(loc).toMatchObject({ startLine: i + 2, endLine: i + 2, startColumn: s.column, endColumn: s.column + s.secret.length - 1 });
        expect(s.line.slice(loc.startColumn! - 1, loc.endColumn!)).toBe(s.secret);
      } else {
        const first = secrets.length + 2;
        expect(loc).toMatchObject({
          startLine: first,
          endLine: first + key.lines.length - 1,
          startColumn: 1,
          endColumn: key.lines[key.lines.length - 1].length,
        });
      }
    }

    // every file is kept for rescans (the README too), with its git blob id
    const contents = await contentsOf(w.repo);
    expect(contents.map((c) => ({ path: c.path, type: c.locationType, commit: c.commitSha, blob: c.blobSha, pusher: c.pusherId, content: c.content }))).toEqual([
      { path: 'config/app.env', type: 'commit', commit: sha, blob: blobSha, pusher: w.admin.id, content: envFile },
      { path: 'README.md', type: 'commit', commit: sha, blob: gitBlobId(readme), pusher: w.admin.id, content: readme },
    ]);
    // one completed incremental git scan, without started_at
    const scans = await scansOf(w.repo);
    expect(scans).toHaveLength(1);
    expect(scans[0]).toMatchObject({ kind: 'incremental', type: 'git', status: 'completed', startedAt: null, alertsFound: expected.length });
    expect(scans[0].completedAt).toBeInstanceOf(Date);
  });

  it('computes git blob ids like git hash-object, on UTF-8 bytes', () => {
    expect(gitBlobSha('')).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(gitBlobSha('hello\n')).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    const unicode = 'clé = "valeur" 🔑\n';
    expect(gitBlobSha(unicode)).toBe(gitBlobId(unicode));
  });

  it('the same secret in another commit adds a location to the same alert; re-pushing the same commit adds nothing', async () => {
    const w = await world();
    const s = fakeSecrets.githubPat();
    const sha1 = commitSha();
    const first = await push().submitPush(await as(w.tokens.admin), onePush(w.full, [{ path: 'a.env', content: secretFile(s) }], sha1));
    expect(first.alerts).toEqual([{ number: 1, created: true }]);

    const other = fileOf(['line one', 'line two', `  ${s.line}`]);
    const second = await push().submitPush(await as(w.tokens.admin), onePush(w.full, [{ path: 'src/other.ts', content: other }]));
    expect(second.alerts).toEqual([{ number: 1, created: false }]);

    const again = await push().submitPush(await as(w.tokens.admin), onePush(w.full, [{ path: 'a.env', content: secretFile(s) }], sha1));
    expect(again.alerts).toEqual([]);

    const alerts = await alertsOf(w.repo);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].locationsCount).toBe(2);
    const locs = await locationsOf(alerts[0]);
    expect(locs.map((l) => [l.path, l.startLine, l.startColumn])).toEqual([
      ['a.env', 2, s.column],
      ['src/other.ts', 3, s.column + 2],
    ]);
    expect(alerts[0].firstLocationId).toBe(locs[0].id);
    // the re-pushed commit's content is not stored twice; one incremental scan per push
    expect(await contentsOf(w.repo)).toHaveLength(2);
    expect((await scansOf(w.repo)).map((x) => [x.kind, x.type, x.status])).toEqual([
      ['incremental', 'git', 'completed'],
      ['incremental', 'git', 'completed'],
      ['incremental', 'git', 'completed'],
    ]);
  });

  it('the same secret twice in one push is one alert with two locations', async () => {
    const w = await world();
    const s = fakeSecrets.slackBot();
    const res = await push().submitPush(await as(w.tokens.admin), {
      repository: w.full,
      ref: 'refs/heads/feature',
      commits: [
        { sha: commitSha(), files: [{ path: 'one.env', content: secretFile(s) }] },
        { sha: commitSha(), files: [{ path: 'two.env', content: secretFile(s) }] },
      ],
    });
    expect(res.alerts).toEqual([{ number: 1, created: true }]);
    const [alert] = await alertsOf(w.repo);
    expect(alert.locationsCount).toBe(2);
    expect((await scansOf(w.repo))[0].alertsFound).toBe(1);
  });

  it('the same secret in a second repository of the same organization makes multi_repo true on both', async () => {
    const w = await world();
    const repo2 = await sibling(w);
    const s = fakeSecrets.awsAccessKeyId();
    await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: '.env', content: secretFile(s) }]));
    expect((await alertBySecret(w.repo, s.secret)).multiRepo).toBe(false);

    await push().submitPush(await as(w.tokens.dev), onePush(`${w.org.login}/${repo2.name}`, [{ path: '.env', content: secretFile(s) }]));
    expect((await alertBySecret(w.repo, s.secret)).multiRepo).toBe(true);
    const a2 = await alertBySecret(repo2, s.secret);
    expect(a2).toMatchObject({ multiRepo: true, number: 1 });

    // another owner's repository is not the same "multi repo" group
    const elsewhere = await world();
    await push().submitPush(await as(elsewhere.tokens.dev), onePush(elsewhere.full, [{ path: '.env', content: secretFile(s) }]));
    expect((await alertBySecret(elsewhere.repo, s.secret)).multiRepo).toBe(false);
  });

  it('a secret pushed to a public repository makes publicly_leaked true on every alert of that secret', async () => {
    const priv = await world();
    const s = fakeSecrets.stripeLive();
    const bystander = fakeSecrets.npm();
    await push().submitPush(await as(priv.tokens.dev), onePush(priv.full, [{ path: 'pay.ts', content: secretFile(s, bystander) }]));
    expect((await alertBySecret(priv.repo, s.secret)).publiclyLeaked).toBe(false);

    const pub = await world({ private: false });
    await push().submitPush(await as(pub.tokens.dev), onePush(pub.full, [{ path: 'pay.ts', content: secretFile(s) }]));
    expect((await alertBySecret(pub.repo, s.secret)).publiclyLeaked).toBe(true);
    expect((await alertBySecret(priv.repo, s.secret)).publiclyLeaked).toBe(true);
    // only that secret
    expect((await alertBySecret(priv.repo, bystander.secret)).publiclyLeaked).toBe(false);

    // found later in yet another private repository: already public, so leaked from the start
    const later = await world();
    await push().submitPush(await as(later.tokens.dev), onePush(later.full, [{ path: 'x.ts', content: secretFile(s) }]));
    expect((await alertBySecret(later.repo, s.secret)).publiclyLeaked).toBe(true);
  });

  it('binary files (with NUL characters) are neither scanned nor stored', async () => {
    const w = await world();
    const s = fakeSecrets.githubPat();
    const res = await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: 'logo.png', content: `\u0000PNG${s.line}` }]));
    expect(res).toMatchObject({ blocked: false, alerts: null });
    expect(await alertsOf(w.repo)).toEqual([]);
    expect(await contentsOf(w.repo)).toEqual([]);
    expect(await scansOf(w.repo)).toHaveLength(1);
  });

  it('secret scanning off: the push is accepted, nothing is scanned or stored', async () => {
    const w = await world({ secretScanning: false });
    const res = await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: '.env', content: secretFile(fakeSecrets.githubPat()) }]));
    expect(res).toMatchObject({ blocked: false, placeholders: [], alerts: null });
    expect(await alertsOf(w.repo)).toEqual([]);
    expect(await contentsOf(w.repo)).toEqual([]);
    expect(await scansOf(w.repo)).toEqual([]);
    expect(await placeholdersOf(w.repo)).toEqual([]);
  });

  // ------------------------------------------------------------------ push protection

  it('push protection blocks a push with secrets: placeholders only, with exact positions; no alert, location, content or scan', async () => {
    const w = await world({ pushProtection: true });
    const a = fakeSecrets.googleApiKey();
    const b = fakeSecrets.sendgrid();
    const sha = commitSha();
    const before = Date.now();
    const res = await push().submitPush(await as(w.tokens.dev), onePush(w.full, [
      { path: 'conf/one.yml', content: secretFile(a, b) },
      { path: 'conf/two.yml', content: fileOf(['x: 1', `  ${a.line}`]) },
    ], sha));
    const after = Date.now();

    expect(res.blocked).toBe(true);
    expect(res.alerts).toBeNull();
    expect(res.placeholders.map(({ placeholderId: _id, expireAt: _e, ...p }) => p)).toEqual([
      { secretType: a.secretType, path: 'conf/one.yml', commitSha: sha, startLine: 2, endLine: 2, startColumn: a.column, endColumn: a.column + a.secret.length - 1 },
      { secretType: b.secretType, path: 'conf/one.yml', commitSha: sha, startLine: 3, endLine: 3, startColumn: b.column, endColumn: b.column + b.secret.length - 1 },
      { secretType: a.secretType, path: 'conf/two.yml', commitSha: sha, startLine: 2, endLine: 2, startColumn: a.column + 2, endColumn: a.column + 1 + a.secret.length },
    ]);
    for (const p of res.placeholders) {
      expect(p.placeholderId).toMatch(/^[0-9A-Za-z]{27}$/);
      expect(p.expireAt.getTime()).toBeGreaterThanOrEqual(before + PLACEHOLDER_TTL_MS);
      expect(p.expireAt.getTime()).toBeLessThanOrEqual(after + PLACEHOLDER_TTL_MS);
    }
    expect(new Set(res.placeholders.map((p) => p.placeholderId)).size).toBe(3);

    const rows = await placeholdersOf(w.repo);
    expect(rows.map((r) => [r.placeholderId, r.pusherId, r.secretHash, r.bypassedAt, r.alertId])).toEqual([
      [res.placeholders[0].placeholderId, w.dev.id, hashSecret(a.secret), null, null],
      [res.placeholders[1].placeholderId, w.dev.id, hashSecret(b.secret), null, null],
      [res.placeholders[2].placeholderId, w.dev.id, hashSecret(a.secret), null, null],
    ]);
    expect(await alertsOf(w.repo)).toEqual([]);
    expect(await db.dataSource.getRepository(SecretScanningLocationEntity).count({ where: { path: In(['conf/one.yml', 'conf/two.yml']), commitSha: sha } })).toBe(0);
    expect(await contentsOf(w.repo)).toEqual([]);
    expect(await scansOf(w.repo)).toEqual([]);
  });

  it('push protection lets a push without secrets through', async () => {
    const w = await world({ pushProtection: true });
    const res = await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: 'README.md', content: 'hello\n' }]));
    expect(res).toMatchObject({ blocked: false, placeholders: [], alerts: null });
    expect(await contentsOf(w.repo)).toHaveLength(1);
    expect(await scansOf(w.repo)).toHaveLength(1);
  });

  it.each([
    ['false_positive', 'resolved', 'false_positive'],
    ['used_in_tests', 'resolved', 'used_in_tests'],
    ['will_fix_later', 'open', null],
  ] as const)('bypass with %s, then push: the alert is created bypassed, %s', async (reason, state, resolution) => {
    const w = await world({ pushProtection: true });
    const s = fakeSecrets.npm();
    const content = secretFile(s);
    const blocked = await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: '.npmrc.example', content }]));
    expect(blocked.blocked).toBe(true);
    const placeholderId = blocked.placeholders[0].placeholderId;

    const t0 = Date.now();
    const bypass = await push().createBypass(await as(w.tokens.dev), await named(w.org.login, w.repo.name), { reason, placeholderId });
    expect(bypass.reason).toBe(reason);
    expect(bypass.tokenType).toBe(s.secretType);
    expect(bypass.expireAt.getTime()).toBeGreaterThanOrEqual(t0 + BYPASS_TTL_MS);
    expect(bypass.expireAt.getTime()).toBeLessThanOrEqual(Date.now() + BYPASS_TTL_MS);
    // idempotent
    expect(await push().createBypass(await as(w.tokens.dev), await named(w.org.login.toUpperCase(), w.repo.name), { reason, placeholderId })).toEqual(bypass);

    const sha = commitSha();
    const res = await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: '.npmrc.example', content }], sha));
    expect(res).toMatchObject({ blocked: false, placeholders: [], alerts: null });
    const row = (await placeholdersOf(w.repo))[0];
    const alert = await alertBySecret(w.repo, s.secret);
    expect(alert).toMatchObject({
      number: 1,
      pushProtectionBypassed: true,
      pushProtectionBypassedById: w.dev.id,
      state,
      resolution,
      resolvedById: resolution ? w.dev.id : null,
    });
    expect(alert.pushProtectionBypassedAt!.getTime()).toBe(row.bypassedAt!.getTime());
    expect(alert.resolvedAt === null).toBe(resolution === null);
    expect(row).toMatchObject({ bypassReason: reason, alertId: alert.id });
    expect((await locationsOf(alert))[0]).toMatchObject({ type: 'commit', path: '.npmrc.example', commitSha: sha, startLine: 2 });
    expect(await contentsOf(w.repo)).toHaveLength(1);
    expect(await scansOf(w.repo)).toHaveLength(1);
  });

  it('a bypass covers only that secret, that pusher and that repository', async () => {
    const w = await world({ pushProtection: true });
    const s = fakeSecrets.githubPat();
    const t = fakeSecrets.slackBot();
    const blocked = await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: 'x.env', content: secretFile(s, t) }]));
    const forS = blocked.placeholders.find((p) => p.secretType === s.secretType)!;
    await push().createBypass(await as(w.tokens.dev), await named(w.org.login, w.repo.name), { reason: 'will_fix_later', placeholderId: forS.placeholderId });

    // the other secret still blocks: only it gets a placeholder
    const again = await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: 'x.env', content: secretFile(s, t) }]));
    expect(again.blocked).toBe(true);
    expect(again.placeholders.map((p) => p.secretType)).toEqual([t.secretType]);
    // another pusher of the same secret is blocked
    const byOther = await push().submitPush(await as(w.tokens.dev2), onePush(w.full, [{ path: 'y.env', content: secretFile(s) }]));
    expect(byOther.blocked).toBe(true);
    // another push-protected repository is not covered
    const repo2 = await sibling(w, { pushProtection: true });
    const elsewhere = await push().submitPush(await as(w.tokens.dev), onePush(`${w.org.login}/${repo2.name}`, [{ path: 'y.env', content: secretFile(s) }]));
    expect(elsewhere.blocked).toBe(true);
    expect(await alertsOf(w.repo)).toEqual([]);

    // the pusher alone, that secret alone: allowed
    const ok = await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: 'z.env', content: secretFile(s) }]));
    expect(ok.blocked).toBe(false);
    expect((await alertsOf(w.repo)).map((a) => [a.secretType, a.pushProtectionBypassed, a.state])).toEqual([[s.secretType, true, 'open']]);
  });

  it('an expired bypass no longer lets the secret through', async () => {
    const w = await world({ pushProtection: true });
    const s = fakeSecrets.mailchimp();
    const blocked = await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: 'm.txt', content: secretFile(s) }]));
    await push().createBypass(await as(w.tokens.dev), await named(w.org.login, w.repo.name), { reason: 'used_in_tests', placeholderId: blocked.placeholders[0].placeholderId });
    await db.dataSource.getRepository(PushProtectionPlaceholderEntity).update({ repositoryId: w.repo.id }, { bypassExpireAt: new Date(Date.now() - 1000) });
    const res = await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: 'm.txt', content: secretFile(s) }]));
    expect(res.blocked).toBe(true);
    expect(await alertsOf(w.repo)).toEqual([]);
  });

  // ------------------------------------------------------------------ bypass endpoint rules

  describe('createBypass', () => {
    async function blockedPush(w: World) {
      const s = fakeSecrets.twilio();
      const res = await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: 't.env', content: secretFile(s) }]));
      expect(res.blocked).toBe(true);
      return { secret: s, placeholderId: res.placeholders[0].placeholderId };
    }

    it('validates the body first (422 with field errors), even for an unknown repository', async () => {
      const w = await world({ pushProtection: true });
      const ctx = await as(w.tokens.dev);
      const bad = await failure(push().createBypass(ctx, await named('nobody-here', 'nothing'), { reason: 'wont_fix', placeholderId: 'x' }));
      expect(bad).toBeInstanceOf(ValidationError);
      expect(statusOf(bad)).toBe(422);
      expect(bad.fieldErrors).toEqual([expect.objectContaining({ field: 'reason', code: 'invalid' })]);

      const missing = await failure(push().createBypass(ctx, await named(w.org.login, w.repo.name), { reason: undefined, placeholderId: '' }));
      expect(missing).toBeInstanceOf(ValidationError);
      expect(missing.fieldErrors?.map((e) => [e.field, e.code])).toEqual([
        ['reason', 'missing_field'],
        ['placeholderId', 'missing_field'],
      ]);
      const notString = await failure(push().createBypass(ctx, await named(w.org.login, w.repo.name), { reason: 'false_positive', placeholderId: 42 }));
      expect(notString.fieldErrors?.map((e) => [e.field, e.code])).toEqual([['placeholderId', 'invalid']]);
    });

    it('404 for a missing or invisible repository, or when push protection is off', async () => {
      const w = await world({ pushProtection: true });
      const { placeholderId } = await blockedPush(w);
      const body = { reason: 'false_positive', placeholderId };
      expect(await failure(push().createBypass(await as(w.tokens.dev), await named(w.org.login, 'missing-repo'), body))).toBeInstanceOf(NotFoundError);
      expect(await failure(push().createBypass(await as(w.tokens.outsider), await named(w.org.login, w.repo.name), body))).toBeInstanceOf(NotFoundError);
      expect(await failure(push().createBypass(await as(), await named(w.org.login, w.repo.name), body))).toBeInstanceOf(NotFoundError);

      await db.dataSource.getRepository(RepositoryEntity).update({ id: w.repo.id }, { pushProtection: false });
      const off = await failure(push().createBypass(await as(w.tokens.dev), await named(w.org.login, w.repo.name), body));
      expect(off).toBeInstanceOf(NotFoundError);
      expect(off.message).toBe('Push protection is disabled on this repository');
    });

    it('403 without the permission: a reader, or a token without the repo scope', async () => {
      const w = await world({ pushProtection: true });
      const { placeholderId } = await blockedPush(w);
      const body = { reason: 'false_positive', placeholderId };
      const reader = await failure(push().createBypass(await as(w.tokens.reader), await named(w.org.login, w.repo.name), body));
      expect(reader).toBeInstanceOf(ForbiddenError);
      expect(reader.message).toBe('User does not have enough permissions');
      // security_events lets the pusher see the repository's alerts, not bypass (endpoint 6 needs repo)
      const narrow = await f.classicToken(w.dev, ['security_events']);
      const e = await failure(push().createBypass(await as(narrow), await named(w.org.login, w.repo.name), body));
      expect(e).toBeInstanceOf(NotFoundError); // a private repository is invisible without the repo scope
      const fgRead = await f.fineGrainedToken(w.dev, [w.full], { contents: 'read' });
      expect(await failure(push().createBypass(await as(fgRead), await named(w.org.login, w.repo.name), body))).toBeInstanceOf(ForbiddenError);
      // fine-grained contents:write is enough
      const fgWrite = await f.fineGrainedToken(w.dev, [w.full], { contents: 'write' });
      await expect(push().createBypass(await as(fgWrite), await named(w.org.login, w.repo.name), body)).resolves.toMatchObject({ reason: 'false_positive' });
    });

    it('only the author of the pushed secret may bypass it (403 for another writer, even an admin)', async () => {
      const w = await world({ pushProtection: true });
      const { placeholderId } = await blockedPush(w);
      const body = { reason: 'will_fix_later', placeholderId };
      expect(await failure(push().createBypass(await as(w.tokens.dev2), await named(w.org.login, w.repo.name), body))).toBeInstanceOf(ForbiddenError);
      expect(await failure(push().createBypass(await as(w.tokens.admin), await named(w.org.login, w.repo.name), body))).toBeInstanceOf(ForbiddenError);
      expect((await placeholdersOf(w.repo))[0].bypassedAt).toBeNull();
    });

    it('404 "Placeholder ID not found" for an unknown, expired or other repository\'s placeholder', async () => {
      const w = await world({ pushProtection: true });
      const { placeholderId } = await blockedPush(w);
      const repo2 = await sibling(w, { pushProtection: true });
      const ctx = () => as(w.tokens.dev);
      for (const [owner, name, id] of [
        [w.org.login, w.repo.name, 'x'.repeat(27)],
        [w.org.login, w.repo.name, 'y'.repeat(500)],
        [w.org.login, repo2.name, placeholderId],
      ]) {
        const e = await failure(push().createBypass(await ctx(), await named(owner, name), { reason: 'false_positive', placeholderId: id }));
        expect(e).toBeInstanceOf(NotFoundError);
        expect(e.message).toBe('Placeholder ID not found');
      }
      await db.dataSource.getRepository(PushProtectionPlaceholderEntity).update({ placeholderId }, { expireAt: new Date(Date.now() - 1000) });
      const expired = await failure(push().createBypass(await ctx(), await named(w.org.login, w.repo.name), { reason: 'false_positive', placeholderId }));
      expect(expired).toBeInstanceOf(NotFoundError);
      expect(expired.message).toBe('Placeholder ID not found');
    });

    it('is idempotent; a different reason updates the reason but not the bypass window', async () => {
      const w = await world({ pushProtection: true });
      const { placeholderId, secret } = await blockedPush(w);
      const first = await push().createBypass(await as(w.tokens.dev), await named(w.org.login, w.repo.name), { reason: 'will_fix_later', placeholderId });
      const same = await push().createBypass(await as(w.tokens.dev), await named(w.org.login, w.repo.name), { reason: 'will_fix_later', placeholderId });
      expect(same).toEqual(first);
      const changed = await push().createBypass(await as(w.tokens.dev), await named(w.org.login, w.repo.name), { reason: 'used_in_tests', placeholderId });
      expect(changed).toEqual({ reason: 'used_in_tests', expireAt: first.expireAt, tokenType: secret.secretType });
      expect((await placeholdersOf(w.repo))[0].bypassReason).toBe('used_in_tests');
    });
  });

  // ------------------------------------------------------------------ other content

  describe('submitContent', () => {
    it('an issue comment with a secret becomes a location of that type with the url; one incremental issue scan', async () => {
      const w = await world({ pushProtection: true });
      const s = fakeSecrets.githubPat();
      const url = `https://api.github.com/repos/${w.full}/issues/comments/1081119451`;
      const ctx = await as(w.tokens.admin);
      const res = await push().submitContent(ctx, { repository: w.full, locationType: 'issue_comment', url, content: `I used ${s.secret} here` });
      expect(res.alerts).toEqual([{ number: 1, created: true }]); // push protection does not apply
      const alert = await alertBySecret(w.repo, s.secret);
      expect(alert).toMatchObject({ secretType: s.secretType, firstLocationId: null, locationsCount: 1 });
      expect(await locationsOf(alert)).toEqual([
        expect.objectContaining({ type: 'issue_comment', url, path: null, commitSha: null, blobSha: null, startLine: null }),
      ]);
      expect((await contentsOf(w.repo)).map((c) => [c.locationType, c.url, c.pusherId])).toEqual([['issue_comment', url, w.admin.id]]);
      expect((await scansOf(w.repo)).map((x) => [x.kind, x.type, x.status, x.startedAt, x.alertsFound])).toEqual([['incremental', 'issue', 'completed', null, 1]]);

      // the same item again: no new location; the same secret in a commit: a second location
      const again = await push().submitContent(await as(w.tokens.admin), { repository: w.full, locationType: 'issue_comment', url, content: `still ${s.secret}` });
      expect(again.alerts).toEqual([]);
      await db.dataSource.getRepository(RepositoryEntity).update({ id: w.repo.id }, { pushProtection: false });
      await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: 'ci.env', content: secretFile(s) }]));
      const after = await alertBySecret(w.repo, s.secret);
      expect(after.locationsCount).toBe(2);
      expect(after.firstLocationId).not.toBeNull();
    });

    it.each([
      ['discussion_comment', 'discussion'],
      ['discussion_title', 'discussion'],
      ['pull_request_review_comment', 'issue'],
      ['issue_title', 'issue'],
    ])('%s content is scanned as %s', async (locationType, scanType) => {
      const w = await world();
      const s = fakeSecrets.sendgrid();
      const url = `https://github.com/${w.full}/discussions/1#discussioncomment-2`;
      await push().submitContent(await as(w.tokens.dev), { repository: w.full, locationType, url, content: s.line });
      const [loc] = await locationsOf(await alertBySecret(w.repo, s.secret));
      expect(loc).toMatchObject({ type: locationType, url });
      expect((await scansOf(w.repo)).map((x) => x.type)).toEqual([scanType]);
    });

    it('rejects commit location types, bad urls and bad content', async () => {
      const w = await world();
      const ctx = await as(w.tokens.dev);
      const base = { repository: w.full, locationType: 'issue_body', url: 'https://example.com/issues/1', content: 'x' };
      for (const bad of [
        { locationType: 'commit' },
        { locationType: 'wiki_commit' },
        { locationType: 'issue' },
        { url: 'ftp://example.com/x' },
        { url: '/repos/a/b/issues/1' },
        { url: 'not a url' },
        { url: 'https://example.com/' + 'a'.repeat(PUSH_LIMITS.url) },
        { content: 42 as unknown as string },
        { repository: 'no-slash' },
      ]) {
        expect(await failure(push().submitContent(ctx, { ...base, ...bad }))).toBeInstanceOf(ValidationError);
      }
      expect(await contentsOf(w.repo)).toEqual([]);
    });

    it('needs write access; secret scanning off stores nothing', async () => {
      const w = await world();
      const input = { repository: w.full, locationType: 'issue_comment', url: 'https://example.com/c/1', content: fakeSecrets.githubPat().line };
      expect(await failure(push().submitContent(await as(w.tokens.reader), input))).toBeInstanceOf(ForbiddenError);
      expect(await failure(push().submitContent(await as(w.tokens.outsider), input))).toBeInstanceOf(NotFoundError);

      const off = await world({ secretScanning: false });
      const res = await push().submitContent(await as(off.tokens.dev), { ...input, repository: off.full });
      expect(res.alerts).toBeNull(); // a writer is not told which alerts (none here: scanning is off)
      expect(await contentsOf(off.repo)).toEqual([]);
      expect(await scansOf(off.repo)).toEqual([]);
    });
  });

  // ------------------------------------------------------------------ rescans

  describe('startScan', () => {
    /** Polls scan history (as the repository admin) until the scan has ended; returns it as history shows it. */
    async function ended(w: World, scan: SecretScanningScanEntity): Promise<SecretScanningScanEntity> {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const history = await f.services.secretScanningScans.scanHistory(await as(w.tokens.admin), await named(w.org.login, w.repo.name));
        const entry = history.scans[scan.kind].find((x) => x.id === scan.id);
        if (!entry) throw new Error(`scan ${scan.id} is not in the history`);
        if (entry.status !== 'in_progress') return entry;
        if (Date.now() > deadline) throw new Error(`scan ${scan.id} did not end`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    it('backfill rescans stored content: no duplicates, finds what was missed, records in_progress then completed', async () => {
      const w = await world({ advancedSecurity: true });
      const s = fakeSecrets.githubPat();
      const t = fakeSecrets.stripeLive();
      const sha = commitSha();
      await push().submitPush(await as(w.tokens.dev), onePush(w.full, [{ path: 'a.env', content: secretFile(s, t) }], sha));
      await push().submitContent(await as(w.tokens.dev), { repository: w.full, locationType: 'issue_body', url: 'https://example.com/i/1', content: s.line });
      // content kept before its secret was known (e.g. stored by an older detector)
      const missed = fakeSecrets.googleApiKey();
      const missedContent = fileOf(['old file', missed.line]);
      await db.dataSource.getRepository(SecretScanningContentEntity).insert({
        repositoryId: w.repo.id,
        locationType: 'commit',
        commitSha: sha,
        path: 'old/file.txt',
        blobSha: gitBlobId(missedContent),
        url: null,
        pusherId: w.dev.id,
        content: missedContent,
      });
      const before = await alertsOf(w.repo);
      expect(before.map((a) => a.locationsCount)).toEqual([2, 1]);

      // answered at once, in_progress; the rescan runs in the background
      const res = await push().startScan(await as(w.tokens.admin), { repository: w.full, kind: 'backfill' });
      expect(res.scan).toMatchObject({ kind: 'backfill', type: 'git', status: 'in_progress', completedAt: null, alertsFound: 0 });
      expect(res.scan.startedAt).toBeInstanceOf(Date);
      expect(res.kind).toBe('backfill');
      expect(res.repository.id).toBe(w.repo.id);
      const done = await ended(w, res.scan);
      expect(done).toMatchObject({ status: 'completed', alertsFound: 1, patternSlug: null, patternScope: null });
      expect(done.startedAt!.getTime()).toBeLessThanOrEqual(done.completedAt!.getTime());

      const after = await alertsOf(w.repo);
      expect(after.map((a) => [a.number, a.locationsCount])).toEqual([[1, 2], [2, 1], [3, 1]]);
      expect(after[2]).toMatchObject({ secret: missed.secret, secretType: missed.secretType });
      expect((await locationsOf(after[2]))[0]).toMatchObject({ type: 'commit', path: 'old/file.txt', commitSha: sha, startLine: 2, startColumn: missed.column });

      // a second run finds nothing new
      const again = await push().startScan(await as(w.tokens.admin), { repository: w.full, kind: 'pattern_update' });
      expect(await ended(w, again.scan)).toMatchObject({ kind: 'pattern_update', status: 'completed', alertsFound: 0 });
      expect((await alertsOf(w.repo)).map((a) => a.locationsCount)).toEqual([2, 1, 1]);

      const custom = await push().startScan(await as(w.tokens.admin), { repository: w.full, kind: 'custom_pattern_backfill' });
      expect(await ended(w, custom.scan)).toMatchObject({ patternScope: 'repository', status: 'completed' });

      // scan history shows them
      const history = await f.services.secretScanningScans.scanHistory(await as(w.tokens.admin), await named(w.org.login, w.repo.name));
      expect(history.scans.backfill.map((x) => x.status)).toEqual(['completed']);
      expect(history.scans.pattern_update.map((x) => x.status)).toEqual(['completed']);
      expect(history.scans.incremental.map((x) => x.type).sort()).toEqual(['git', 'issue']);
    });

    it('a workflow attempt key finds the scan it started (running: the same one; completed: answered as is); a failed one is replaced', async () => {
      const w = await world({ advancedSecurity: true });
      const admin = await as(w.tokens.admin);
      const first = await push().startScan(admin, { repository: w.full, kind: 'backfill', attemptKey: 'arn:job#Scan@1#1' });
      const again = await push().startScan(admin, { repository: w.full, kind: 'backfill', attemptKey: 'arn:job#Scan@1#1' });
      expect(again.scan.id).toBe(first.scan.id);
      expect((await again.done).status).toBe('completed');
      const replay = await push().startScan(admin, { repository: w.full, kind: 'backfill', attemptKey: 'arn:job#Scan@1#1' });
      expect([replay.scan.id, replay.scan.status]).toEqual([first.scan.id, 'completed']);
      const scans = db.dataSource.getRepository(SecretScanningScanEntity);
      expect(await scans.count({ where: { repositoryId: w.repo.id, kind: 'backfill' } })).toBe(1);
      // A scan of that key that failed (e.g. interrupted by a crash, marked failed at the next start) is replaced.
      await scans.update({ id: first.scan.id }, { status: 'failed' });
      const retried = await push().startScan(admin, { repository: w.full, kind: 'backfill', attemptKey: 'arn:job#Scan@1#1' });
      expect(retried.scan.id).not.toBe(first.scan.id);
      expect((await retried.done).status).toBe('completed');
      expect(await scans.count({ where: { repositoryId: w.repo.id, kind: 'backfill' } })).toBe(2);
      // Another attempt (a retry) is another scan.
      const other = await push().startScan(admin, { repository: w.full, kind: 'backfill', attemptKey: 'arn:job#Scan@1#2' });
      expect([first.scan.id, retried.scan.id]).not.toContain(other.scan.id);
      await other.done;
    });

    it('an empty repository completes with nothing found', async () => {
      const w = await world({ advancedSecurity: true });
      const res = await push().startScan(await as(w.tokens.admin), { repository: w.full, kind: 'generic_secrets_backfill' });
      expect(await ended(w, res.scan)).toMatchObject({ kind: 'generic_secrets_backfill', status: 'completed', alertsFound: 0 });
    });

    it('validates the kind; needs an admin (403 for writers, 404 for outsiders) and advanced security (404)', async () => {
      const w = await world({ advancedSecurity: true });
      for (const kind of ['incremental', 'full', '']) {
        expect(await failure(push().startScan(await as(w.tokens.admin), { repository: w.full, kind }))).toBeInstanceOf(ValidationError);
      }
      expect(await failure(push().startScan(await as(w.tokens.dev), { repository: w.full, kind: 'backfill' }))).toBeInstanceOf(ForbiddenError);
      expect(await failure(push().startScan(await as(w.tokens.outsider), { repository: w.full, kind: 'backfill' }))).toBeInstanceOf(NotFoundError);
      const plain = await world();
      expect(await failure(push().startScan(await as(plain.tokens.admin), { repository: plain.full, kind: 'backfill' }))).toBeInstanceOf(NotFoundError);
      const off = await world({ secretScanning: false, advancedSecurity: true });
      expect(await failure(push().startScan(await as(off.tokens.admin), { repository: off.full, kind: 'backfill' }))).toBeInstanceOf(NotFoundError);
      expect(await scansOf(w.repo)).toEqual([]);
    });
  });

  // ------------------------------------------------------------------ access and validation

  describe('push access', () => {
    const clean = (full: string) => onePush(full, [{ path: 'README.md', content: 'hi\n' }]);

    it('a reader cannot push (403); an outsider or anonymous caller gets 404 on a private repository', async () => {
      const w = await world();
      const reader = await failure(push().submitPush(await as(w.tokens.reader), clean(w.full)));
      expect(reader).toBeInstanceOf(ForbiddenError);
      expect(statusOf(reader)).toBe(403);
      expect(await failure(push().submitPush(await as(w.tokens.outsider), clean(w.full)))).toBeInstanceOf(NotFoundError);
      expect(await failure(push().submitPush(await as(), clean(w.full)))).toBeInstanceOf(NotFoundError);
      expect(await failure(push().submitPush(await as(w.tokens.dev), clean(`${w.org.login}/does-not-exist`)))).toBeInstanceOf(NotFoundError);
      expect(await scansOf(w.repo)).toEqual([]);
    });

    it('on a public repository: outsiders get 403, anonymous callers 401; public_repo is enough for a writer', async () => {
      const w = await world({ private: false });
      expect(await failure(push().submitPush(await as(w.tokens.outsider), clean(w.full)))).toBeInstanceOf(ForbiddenError);
      expect(await failure(push().submitPush(await as(), clean(w.full)))).toBeInstanceOf(UnauthenticatedError);
      const publicRepo = await f.classicToken(w.dev, ['public_repo']);
      await expect(push().submitPush(await as(publicRepo), clean(w.full))).resolves.toMatchObject({ blocked: false });
    });

    it('token limits: classic needs repo on a private repository; fine-grained needs contents:write on a selected repository', async () => {
      const w = await world();
      const publicRepo = await f.classicToken(w.dev, ['public_repo']);
      expect(await failure(push().submitPush(await as(publicRepo), clean(w.full)))).toBeInstanceOf(NotFoundError);
      const fgWrite = await f.fineGrainedToken(w.dev, [w.full], { contents: 'write' });
      await expect(push().submitPush(await as(fgWrite), clean(w.full))).resolves.toMatchObject({ blocked: false });
      const fgRead = await f.fineGrainedToken(w.dev, [w.full], { contents: 'read' });
      const e = await failure(push().submitPush(await as(fgRead), clean(w.full)));
      expect(e).toBeInstanceOf(ForbiddenError);
      expect(e.message).toBe('Resource not accessible by personal access token: the token lacks the `contents` permission (write).');
      // write permission on the token does not make a reader a writer
      const readerFg = await f.fineGrainedToken(w.reader, [w.full], { contents: 'write' });
      expect(await failure(push().submitPush(await as(readerFg), clean(w.full)))).toBeInstanceOf(ForbiddenError);
    });

    it('validates the push before anything else, with clear messages', async () => {
      const w = await world();
      const ctx = await as(w.tokens.dev);
      const file = { path: 'a.txt', content: 'x' };
      const cases: Array<[Partial<SubmitPushInput> & Record<string, unknown>, RegExp]> = [
        [{ repository: 'nope' }, /owner\/name/],
        [{ ref: '' }, /ref/],
        [{ commits: [] }, /commits/],
        [{ commits: Array.from({ length: PUSH_LIMITS.commits + 1 }, () => ({ sha: commitSha(), files: [] })) }, /at most 100 commits/],
        [{ commits: [{ sha: 'xyz1234', files: [file] }] }, /sha must be 7 to 64 hexadecimal/],
        [{ commits: [{ sha: 'abc12', files: [file] }] }, /sha/],
        [{ commits: [{ sha: 'a'.repeat(65), files: [file] }] }, /sha/],
        [{ commits: [{ sha: commitSha(), files: [{ path: '', content: 'x' }] }] }, /path must be a non-empty string/],
        [{ commits: [{ sha: commitSha(), files: [{ path: 'p'.repeat(1025), content: 'x' }] }] }, /at most 1024 characters/],
        [{ commits: [{ sha: commitSha(), files: [{ path: 'a', content: null as unknown as string }] }] }, /content must be a string/],
        [{ commits: [{ sha: commitSha(), files: Array.from({ length: PUSH_LIMITS.files + 1 }, (_, i) => ({ path: `f${i}`, content: '' })) }] }, /at most 1000 files/],
        [{ commits: [{ sha: commitSha(), files: [{ path: 'big', content: 'x'.repeat(PUSH_LIMITS.bytes + 1) }] }] }, /bytes/],
      ];
      for (const [override, message] of cases) {
        const e = await failure(push().submitPush(ctx, { ...onePush(w.full, [file]), ...override } as SubmitPushInput));
        expect(e).toBeInstanceOf(ValidationError);
        expect(statusOf(e)).toBe(422);
        expect(e.message).toMatch(message);
      }
      // validation comes before the repository look-up
      expect(await failure(push().submitPush(ctx, { ...onePush('ghost/none', [file]), ref: '' }))).toBeInstanceOf(ValidationError);
      expect(await contentsOf(w.repo)).toEqual([]);
    });
  });
});
