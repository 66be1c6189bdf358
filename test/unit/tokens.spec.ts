import { IsNull } from 'typeorm';
import { AccessTokenEntity, AccountEntity } from '../../entities/identity';
import { authenticateBearer } from '../../src/auth/authenticate';
import { SecretBox } from '../../src/auth/secret-box';
import { generateAccessKeyPair, generateToken, hashToken, isWellFormedToken } from '../../src/auth/tokens';
import { UnauthenticatedError } from '../../src/errors/app-error';
import { IdentityFixtures } from '../fixtures/identity';
import { openTestDatabase, TestDatabase } from '../helpers/db';

describe('tokens', () => {
  it('generates distinct, well-formed tokens with a checksum that catches typos', () => {
    const a = generateToken('classic');
    const b = generateToken('fine_grained');
    expect(a).toMatch(/^gwc_[0-9A-Za-z]{46}$/);
    expect(b).toMatch(/^gwf_[0-9A-Za-z]{46}$/);
    expect(isWellFormedToken(a)).toBe(true);
    expect(isWellFormedToken(b)).toBe(true);
    const typo = a.slice(0, 10) + (a[10] === 'x' ? 'y' : 'x') + a.slice(11);
    expect(isWellFormedToken(typo)).toBe(false);
    expect(new Set(Array.from({ length: 200 }, () => generateToken('classic'))).size).toBe(200);
  });

  it('keeps accepting tokens issued before (their checksums as the first implementation computed them)', () => {
    // Made by the bitwise CRC-32 this module had until session 26: stored tokens must stay well formed.
    const issued = ['gwc_aVeRriKZCmqMoOCQnHqQP3agDCyCwm4A44ptloJi07Sa65', 'gwf_wc4Vmhw6EDhhfBSjNwnGJr3fGxYqpdWhPbkEWzLK1ll09E'];
    for (const token of issued) {
      expect(isWellFormedToken(token)).toBe(true);
      // Any other checksum, or a changed body under the same checksum, is refused.
      expect(isWellFormedToken(token.slice(0, -1) + (token.endsWith('0') ? '1' : '0'))).toBe(false);
      expect(isWellFormedToken(token.slice(0, 20) + (token[20] === 'a' ? 'b' : 'a') + token.slice(21))).toBe(false);
    }
    expect(isWellFormedToken('gwx_aVeRriKZCmqMoOCQnHqQP3agDCyCwm4A44ptloJi07Sa65')).toBe(false);
    expect(isWellFormedToken('gwc_aVeRriKZCmqMoOCQnHqQP3agDCyCwm4A44ptloJi07Sa6')).toBe(false);
  });

  it('hashes with SHA-256 (hex), deterministic', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('access key pairs look like AWS ones and the secret survives the encryption round trip', () => {
    const { accessKeyId, secretAccessKey } = generateAccessKeyPair();
    expect(accessKeyId).toMatch(/^AKIA[A-Z2-7]{16}$/);
    expect(secretAccessKey).toHaveLength(40);
    const box = new SecretBox('server key');
    const sealed = box.seal(secretAccessKey);
    expect(sealed).not.toContain(secretAccessKey);
    expect(box.open(sealed)).toBe(secretAccessKey);
    expect(() => new SecretBox('another key').open(sealed)).toThrow();
  });
});

describe('token storage and lookup', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
  });
  afterAll(() => db.drop());

  it('stores only the hash and finds the user by the plain token', async () => {
    const u = await f.user();
    const token = await f.classicToken(u, ['repo', 'security_events']);
    const rows = await db.dataSource.getRepository(AccessTokenEntity).find({ where: { userId: u.id } });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0].tokenHash).toBe(hashToken(token));
    const viewer = await authenticateBearer(db.dataSource, `Bearer ${token}`);
    expect(viewer.kind).toBe('user');
    if (viewer.kind === 'user') {
      expect(viewer.user.login).toBe(u.login);
      // The viewer's account is the whole entity, as TypeORM reads it (dates, booleans and all).
      expect(viewer.user).toEqual(await db.dataSource.getRepository(AccountEntity).findOneByOrFail({ id: u.id }));
      expect(viewer.user).toBeInstanceOf(AccountEntity);
      expect(viewer.credential).toMatchObject({ type: 'classic' });
      if (viewer.credential.type === 'classic') expect([...viewer.credential.scopes].sort()).toEqual(['repo', 'security_events']);
    }
    // GitHub clients send "token <t>"
    expect((await authenticateBearer(db.dataSource, `token ${token}`)).kind).toBe('user');
  });

  it('treats no header as anonymous', async () => {
    expect(await authenticateBearer(db.dataSource, undefined)).toEqual({ kind: 'anonymous' });
    expect(await authenticateBearer(db.dataSource, '')).toEqual({ kind: 'anonymous' });
  });

  it.each([
    ['an unknown well-formed token', () => `Bearer ${generateToken('classic')}`],
    ['garbage', () => 'Bearer nope'],
    ['an unknown scheme', () => 'Basic dXNlcjpwYXNz'],
  ])('rejects %s as Bad credentials', async (_name, header) => {
    await expect(authenticateBearer(db.dataSource, header())).rejects.toThrow(UnauthenticatedError);
    await expect(authenticateBearer(db.dataSource, header())).rejects.toThrow('Bad credentials');
  });

  it('rejects revoked and expired tokens', async () => {
    const u = await f.user();
    const revoked = await f.classicToken(u, ['repo']);
    await db.dataSource.getRepository(AccessTokenEntity).update({ tokenHash: hashToken(revoked), revokedAt: IsNull() }, { revokedAt: new Date() });
    await expect(authenticateBearer(db.dataSource, `Bearer ${revoked}`)).rejects.toThrow('Bad credentials');
    await expect(
      f.services.identity.createToken(db.dataSource.manager, { user: u.login, kind: 'classic', scopes: ['repo'], expiresAt: new Date(Date.now() - 1000) }),
    ).rejects.toThrow('expiresAt must be a date in the future');
    const { token: expired, record } = await f.services.identity.createToken(db.dataSource.manager, {
      user: u.login,
      kind: 'classic',
      scopes: ['repo'],
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await authenticateBearer(db.dataSource, `Bearer ${expired}`)).kind).toBe('user');
    await db.dataSource.getRepository(AccessTokenEntity).update({ id: record.id }, { expiresAt: new Date(Date.now() - 1000) });
    await expect(authenticateBearer(db.dataSource, `Bearer ${expired}`)).rejects.toThrow('Bad credentials');
  });

  it('gives fine-grained tokens their repositories and permissions', async () => {
    const o = await f.org();
    const u = await f.user();
    const r = await f.repo(o, { private: true });
    const token = await f.fineGrainedToken(u, [`${o.login}/${r.name}`], { contents: 'write', secret_scanning_alerts: 'read' });
    const v = await authenticateBearer(db.dataSource, `Bearer ${token}`);
    expect(v.kind === 'user' && v.credential).toEqual({
      type: 'fine_grained',
      tokenId: expect.any(Number),
      permissions: { contents: 'write', secret_scanning_alerts: 'read' },
      repositoryIds: new Set([r.id]),
    });
  });
});
