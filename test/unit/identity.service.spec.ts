/**
 * IdentityService rules on a real database (in-memory SQLite, or PostgreSQL with DATABASE_URL).
 */
import { AccountEntity, RepositoryCollaboratorEntity } from '../../entities/identity';
import { ConflictError, ForbiddenError, NotFoundError, toAppError, ValidationError } from '../../src/errors/app-error';
import { IdentityFixtures } from '../fixtures/identity';
import { testContexts } from '../helpers/context';
import { openTestDatabase, TestDatabase } from '../helpers/db';

describe('IdentityService', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
  });
  afterAll(() => db.drop());

  const ctxFor = (token?: string) => testContexts(db.dataSource, f.services).as(token);
  const named = (owner: string, name: string) => testContexts(db.dataSource, f.services).repository(owner, name);

  it('logins are unique case-insensitively across users and organizations', async () => {
    await f.user('Sam');
    await expect(f.user('sam')).rejects.toThrow(ConflictError);
    await expect(f.org('SAM')).rejects.toThrow(ConflictError);
  });

  it.each(['-bad', 'bad-', 'a--b', 'has space', 'x'.repeat(40), ''])('rejects login %p', async (login) => {
    await expect(f.user(login)).rejects.toThrow(ValidationError);
  });

  it.each(['.', '..', 'x.git', 'a/b', 'x'.repeat(101)])('rejects repository name %p', async (name) => {
    const o = await f.org();
    await expect(f.repo(o, { name })).rejects.toThrow(ValidationError);
  });

  it('rejects over-long names and descriptions instead of failing in the database', async () => {
    await expect(f.services.identity.createUser(db.dataSource.manager, { login: 'longname', name: 'x'.repeat(256) })).rejects.toThrow(ValidationError);
    const o = await f.org();
    await expect(
      f.services.identity.createRepository(db.dataSource.manager, { owner: o.login, name: 'r', description: 'x'.repeat(1001) }),
    ).rejects.toThrow(ValidationError);
  });

  it('a unique-index race surfaces as a Conflict, not an internal error', async () => {
    const repo = db.dataSource.getRepository(AccountEntity);
    await repo.insert({ login: 'racer', loginLower: 'racer', type: 'User', name: null, email: null, calendarRole: null, siteAdmin: false });
    const err = await repo
      .insert({ login: 'RACER', loginLower: 'racer', type: 'User', name: null, email: null, calendarRole: null, siteAdmin: false })
      .catch((e) => e);
    expect(toAppError(err)).toBeInstanceOf(ConflictError);
  });

  it('grant and add-member update an existing row instead of duplicating it', async () => {
    const o = await f.org();
    const u = await f.user();
    const r = await f.repo(o);
    await f.grant(r, o, u, 'read');
    await f.grant(r, o, u, 'admin');
    const rows = await db.dataSource.getRepository(RepositoryCollaboratorEntity).find({ where: { repositoryId: r.id } });
    expect(rows.map((x) => x.permission)).toEqual(['admin']);
    await f.member(o, u, 'member');
    const m = await f.member(o, u, 'security_manager');
    expect(m.role).toBe('security_manager');
  });

  it('fine-grained tokens store each repository once', async () => {
    const o = await f.org('dedupeorg');
    const u = await f.user();
    const r = await f.repo(o, { name: 'dup' });
    const { record } = await f.services.identity.createToken(db.dataSource.manager, {
      user: u.login,
      kind: 'fine_grained',
      repos: ['dedupeorg/dup', 'DedupeOrg/DUP'],
      permissions: { contents: 'read' },
    });
    expect(record.repositoryIds).toEqual([r.id]);
  });

  it('push protection turns secret scanning on; turning scanning off with protection on is refused', async () => {
    const o = await f.org();
    const admin = await f.user();
    await f.member(o, admin, 'admin');
    const r = await f.repo(o, { pushProtection: true });
    expect(r.secretScanning).toBe(true);
    const ctx = await ctxFor(await f.classicToken(admin, ['repo']));
    await expect(f.services.identity.updateRepositorySecuritySettings(ctx, await named(o.login, r.name), { secretScanning: false })).rejects.toThrow(
      'Push protection requires secret scanning',
    );
  });

  it('security settings: repository admins only; others who can see it get Forbidden; hidden is NotFound', async () => {
    const o = await f.org();
    const admin = await f.user();
    const writer = await f.user();
    const stranger = await f.user();
    await f.member(o, admin, 'admin');
    const r = await f.repo(o, { private: true });
    await f.grant(r, o, writer, 'write');
    const svc = f.services.identity;
    const ok = await svc.updateRepositorySecuritySettings(await ctxFor(await f.classicToken(admin, ['repo'])), await named(o.login, r.name), { advancedSecurity: true });
    expect(ok.advancedSecurity).toBe(true);
    await expect(svc.updateRepositorySecuritySettings(await ctxFor(await f.classicToken(writer, ['repo'])), await named(o.login, r.name), { advancedSecurity: false })).rejects.toThrow(ForbiddenError);
    await expect(svc.updateRepositorySecuritySettings(await ctxFor(await f.classicToken(stranger, ['repo'])), await named(o.login, r.name), { advancedSecurity: false })).rejects.toThrow(NotFoundError);
    // an admin whose token lacks the repo scope cannot even see the private repository
    await expect(svc.updateRepositorySecuritySettings(await ctxFor(await f.classicToken(admin, ['read:org'])), await named(o.login, r.name), { advancedSecurity: false })).rejects.toThrow(NotFoundError);
  });

  it('the access-key secret is encrypted at rest and readable only with the same server key', async () => {
    const u = await f.user();
    const key = await f.services.identity.createAccessKey(db.dataSource.manager, { user: u.login }, 'server-key-1');
    expect(key.record.secretCiphertext).not.toContain(key.secretAccessKey);
    const found = await f.services.identity.accessKeySecret(db.dataSource.manager, key.accessKeyId, 'server-key-1');
    expect(found?.secret).toBe(key.secretAccessKey);
    // under another server key the secret cannot be opened: the key is unusable (answered as unknown), no error
    expect(await f.services.identity.accessKeySecret(db.dataSource.manager, key.accessKeyId, 'other-key')).toBeNull();
    // without a configured key, one is generated once and shared through the database
    const k2 = await f.services.identity.createAccessKey(db.dataSource.manager, { user: u.login });
    expect((await f.services.identity.accessKeySecret(db.dataSource.manager, k2.accessKeyId))?.secret).toBe(k2.secretAccessKey);
  });
});
