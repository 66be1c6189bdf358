/**
 * The admin CLI as a user runs it: the built `node dist/src/cli.js` in a child process, against a
 * throwaway database (a temporary SQLite file, or a fresh PostgreSQL database when DATABASE_URL is a
 * postgres:// URL). Side effects are checked by reading the same database from the test.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DataSource } from 'typeorm';
import {
  AccessTokenEntity,
  AccountEntity,
  MembershipEntity,
  RepositoryCollaboratorEntity,
  RepositoryEntity,
  WorkflowAccessKeyEntity,
} from '../../entities/identity';
import { WorkflowConnectionEntity } from '../../entities/workflow';
import { SecretBox } from '../../src/auth/secret-box';
import { openDatabase } from '../../ormconfig';
import { authenticateBearer } from '../../src/auth/authenticate';
import type { UserViewer } from '../../src/auth/viewer';
import type { DatabaseConfig } from '../../src/config';
import { createServices } from '../../src/services';
import { createTestDatabaseConfig, testDialect } from '../helpers/db';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'src', 'cli.js');
const TSC = require.resolve('typescript/bin/tsc');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface ThrowawayDb {
  url: string;
  database: DatabaseConfig;
  drop(): Promise<void>;
}

let tmpDir: string;

/** A database nobody has opened yet: a new SQLite file, or a new PostgreSQL database. */
async function throwawayDb(label: string): Promise<ThrowawayDb> {
  if (testDialect() === 'postgres') {
    const { database, drop } = await createTestDatabaseConfig({ empty: true });
    if (database.type !== 'postgres') throw new Error('expected a postgres database');
    return { url: database.url, database, drop };
  }
  const file = path.join(tmpDir, `${label}.sqlite`);
  return { url: `sqlite:${file}`, database: { type: 'sqlite', path: file }, drop: async () => undefined };
}

/** Run the built CLI; never rejects (the exit code is part of the result). */
function cli(args: string[], opts: { databaseUrl?: string; env?: Record<string, string>; stdin?: string } = {}): Promise<Result> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: opts.databaseUrl ?? main.url, ...opts.env };
  if (!opts.env?.GATEWAY_SECRET_KEY) delete env.GATEWAY_SECRET_KEY;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: tmpDir, env, stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Run and expect success: exit 0, nothing on stderr, one JSON document on stdout. */
async function ok<T = any>(args: string[], opts?: Parameters<typeof cli>[1]): Promise<T> {
  const r = await cli(args, opts);
  if (r.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as T;
}

/** A failed run: the exit code, one line on stderr starting with "error: ", no stack, nothing on stdout. */
function expectFailure(r: Result, code: number, message?: RegExp): void {
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code, stdout: '' });
  expect(r.stderr).toMatch(/^error: \S/);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at |\.ts:\d+|\.js:\d+/);
  expect(r.stderr).not.toMatch(/gw[cf]_[0-9A-Za-z]{10}/);
  if (message) expect(r.stderr).toMatch(message);
}

const TABLES = [
  AccountEntity,
  MembershipEntity,
  RepositoryEntity,
  RepositoryCollaboratorEntity,
  AccessTokenEntity,
  WorkflowAccessKeyEntity,
] as const;

async function rowCounts(ds: DataSource): Promise<number[]> {
  return Promise.all(TABLES.map((t) => ds.getRepository(t).count()));
}

let main: ThrowawayDb;
let ds: DataSource;

beforeAll(async () => {
  // The suite runs the built CLI. jest's globalSetup (test/global-setup.ts) runs the incremental build
  // before every run; build here as well if dist/src/cli.js is still missing (e.g. run without it).
  if (!fs.existsSync(CLI)) {
    await new Promise<void>((resolve, reject) => {
      execFile(process.execPath, [TSC, '-p', 'tsconfig.build.json'], { cwd: ROOT, timeout: 110_000 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`build failed:\n${stdout}${stderr}`));
        else resolve();
      });
    });
  }
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-cli-'));
  main = await throwawayDb('main');
  ds = await openDatabase({ database: main.database });
}, 120_000);

afterAll(async () => {
  if (ds?.isInitialized) await ds.destroy();
  await main?.drop();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe('help', () => {
  it('help and --help print the usage of every command and exit 0', async () => {
    for (const r of await Promise.all([cli(['help']), cli(['--help'])])) {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      for (const c of ['create-user', 'create-org', 'add-member', 'create-repo', 'grant', 'create-token', 'create-access-key', 'create-connection', 'list-connections', 'delete-connection', 'seed-demo']) {
        expect(r.stdout).toMatch(new RegExp(`^  ${c}( |$)`, 'm'));
      }
      expect(r.stdout).toContain('--kind fine_grained --repo O/N');
    }
  });

  it('prints one command\'s usage for "help <command>" and "<command> --help"', async () => {
    const [a, b] = await Promise.all([cli(['help', 'create-token']), cli(['create-token', '--help'])]);
    for (const r of [a, b]) {
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: .*create-token --user U --kind classic --scopes/);
      expect(r.stdout).not.toContain('create-user');
    }
  });
});

describe('commands', () => {
  const ids: Record<string, number> = {};

  it('create-user prints the user and stores it', async () => {
    const alice = await ok([
      'create-user',
      '--login',
      'alice',
      '--name',
      'Alice Admin',
      '--email',
      'alice@example.com',
      '--calendar-role',
      'editor',
      '--site-admin',
    ]);
    expect(alice).toEqual({
      id: expect.any(Number),
      login: 'alice',
      type: 'User',
      name: 'Alice Admin',
      email: 'alice@example.com',
      calendarRole: 'editor',
      siteAdmin: true,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    });
    expect(Math.abs(Date.parse(alice.createdAt) - Date.now())).toBeLessThan(5 * 60_000);
    const row = await ds.getRepository(AccountEntity).findOneByOrFail({ id: alice.id });
    expect(row).toMatchObject({ login: 'alice', loginLower: 'alice', type: 'User', name: 'Alice Admin', calendarRole: 'editor', siteAdmin: true });

    const bob = await ok(['create-user', '--login', 'Bob']);
    expect(bob).toMatchObject({ login: 'Bob', type: 'User', name: null, email: null, calendarRole: null, siteAdmin: false });
    expect(await ds.getRepository(AccountEntity).findOneByOrFail({ id: bob.id })).toMatchObject({ loginLower: 'bob', siteAdmin: false });
    ids.alice = alice.id;
    ids.bob = bob.id;
  });

  it('create-org prints the organization and stores it', async () => {
    const org = await ok(['create-org', '--login', 'acme', '--name', 'Acme Corp']);
    expect(org).toEqual({ id: expect.any(Number), login: 'acme', type: 'Organization', name: 'Acme Corp', createdAt: expect.any(String) });
    expect(await ds.getRepository(AccountEntity).findOneByOrFail({ id: org.id })).toMatchObject({ type: 'Organization', name: 'Acme Corp' });
    ids.acme = org.id;
  });

  it('add-member adds a member, and changes the role of an existing one', async () => {
    const m = await ok(['add-member', '--org', 'acme', '--user', 'bob', '--role', 'security_manager']);
    expect(m).toEqual({ id: expect.any(Number), organization: 'acme', user: 'Bob', role: 'security_manager', createdAt: expect.any(String) });
    await ok(['add-member', '--org', 'ACME', '--user', 'alice', '--role', 'member']);
    const changed = await ok(['add-member', '--org', 'acme', '--user', 'alice', '--role', 'admin']);
    expect(changed).toMatchObject({ organization: 'acme', user: 'alice', role: 'admin' });
    const rows = await ds.getRepository(MembershipEntity).find({ where: { organizationId: ids.acme }, order: { id: 'ASC' } });
    expect(rows.map((r) => [r.userId, r.role])).toEqual([
      [ids.bob, 'security_manager'],
      [ids.alice, 'admin'],
    ]);
  });

  it('create-repo prints the repository with its security settings and stores it', async () => {
    const api = await ok([
      'create-repo',
      '--owner',
      'acme',
      '--name',
      'api',
      '--private',
      '--secret-scanning',
      '--push-protection',
      '--advanced-security',
      '--delegated-alert-dismissal',
      '--description',
      'Payments API',
    ]);
    expect(api).toEqual({
      id: expect.any(Number),
      owner: 'acme',
      name: 'api',
      fullName: 'acme/api',
      description: 'Payments API',
      private: true,
      secretScanning: true,
      pushProtection: true,
      advancedSecurity: true,
      delegatedAlertDismissal: true,
      createdAt: expect.any(String),
    });
    expect(await ds.getRepository(RepositoryEntity).findOneByOrFail({ id: api.id })).toMatchObject({
      ownerId: ids.acme,
      name: 'api',
      private: true,
      secretScanning: true,
      pushProtection: true,
      advancedSecurity: true,
      delegatedAlertDismissal: true,
    });

    // Defaults, and --push-protection alone turns secret scanning on (the service's rule).
    const dotfiles = await ok(['create-repo', '--owner', 'alice', '--name', 'dotfiles', '--push-protection']);
    expect(dotfiles).toMatchObject({
      fullName: 'alice/dotfiles',
      description: null,
      private: false,
      secretScanning: true,
      pushProtection: true,
      advancedSecurity: false,
      delegatedAlertDismissal: false,
    });
    ids.api = api.id;
    ids.dotfiles = dotfiles.id;
  });

  it('grant gives a user a permission on a repository', async () => {
    const g = await ok(['grant', '--repo', 'acme/api', '--user', 'bob', '--permission', 'write']);
    expect(g).toEqual({ id: expect.any(Number), repository: 'acme/api', user: 'Bob', permission: 'write', createdAt: expect.any(String) });
    const row = await ds.getRepository(RepositoryCollaboratorEntity).findOneByOrFail({ repositoryId: ids.api, userId: ids.bob });
    expect(row.permission).toBe('write');
  });

  it('create-token (classic) prints a token that authenticates, stored only as a hash', async () => {
    const t = await ok([
      'create-token',
      '--user',
      'alice',
      '--kind',
      'classic',
      '--scopes',
      'repo,security_events',
      '--note',
      'ci',
      '--expires-in-days',
      '7',
    ]);
    expect(t).toEqual({
      id: expect.any(Number),
      user: 'alice',
      kind: 'classic',
      token: expect.stringMatching(/^gwc_[0-9A-Za-z]{46}$/),
      hint: t.token.slice(0, 8),
      note: 'ci',
      scopes: ['repo', 'security_events'],
      permissions: null,
      repositories: null,
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(Math.abs(Date.parse(t.expiresAt) - (Date.now() + 7 * 86_400_000))).toBeLessThan(5 * 60_000);

    const viewer = (await authenticateBearer(ds, `Bearer ${t.token}`)) as UserViewer;
    expect(viewer.kind).toBe('user');
    expect(viewer.user.login).toBe('alice');
    expect(viewer.credential).toEqual({ type: 'classic', tokenId: t.id, scopes: new Set(['repo', 'security_events']) });

    const row = await ds.getRepository(AccessTokenEntity).findOneByOrFail({ id: t.id });
    expect(row.tokenHash).toBe(createHash('sha256').update(t.token).digest('hex'));
    expect(row.tokenHint).toBe(t.hint);
    await expectNotStoredInPlainText(t.token);
  });

  it('create-token (fine_grained) prints a token limited to the given repositories and permissions', async () => {
    const t = await ok([
      'create-token',
      '--user',
      'bob',
      '--kind',
      'fine_grained',
      '--repo',
      'acme/api',
      '--repo',
      'alice/dotfiles',
      '--permissions',
      'contents:write,secret_scanning_alerts:read',
    ]);
    expect(t).toMatchObject({
      user: 'Bob',
      kind: 'fine_grained',
      token: expect.stringMatching(/^gwf_[0-9A-Za-z]{46}$/),
      note: null,
      scopes: null,
      permissions: { contents: 'write', secret_scanning_alerts: 'read' },
      repositories: ['acme/api', 'alice/dotfiles'],
      expiresAt: null,
    });
    expect(t.hint).toBe(t.token.slice(0, 8));

    const viewer = (await authenticateBearer(ds, `token ${t.token}`)) as UserViewer;
    expect(viewer.user.login).toBe('Bob');
    expect(viewer.credential).toEqual({
      type: 'fine_grained',
      tokenId: t.id,
      permissions: { contents: 'write', secret_scanning_alerts: 'read' },
      repositoryIds: new Set([ids.api, ids.dotfiles]),
    });
    await expectNotStoredInPlainText(t.token);
  });

  it('create-access-key prints the key pair once and stores the secret encrypted with GATEWAY_SECRET_KEY', async () => {
    const key = 'cli-test-secret-key';
    const k = await ok(['create-access-key', '--user', 'alice'], { env: { GATEWAY_SECRET_KEY: key } });
    expect(k).toEqual({
      id: expect.any(Number),
      user: 'alice',
      accessKeyId: expect.stringMatching(/^AKIA[A-Z2-7]{16}$/),
      secretAccessKey: expect.stringMatching(/^[A-Za-z0-9=]{40}$/),
      status: 'Active',
      createdAt: expect.any(String),
    });
    const row = await ds.getRepository(WorkflowAccessKeyEntity).findOneByOrFail({ accessKeyId: k.accessKeyId });
    expect(row.userId).toBe(ids.alice);
    expect(row.secretCiphertext).not.toContain(k.secretAccessKey);
    const opened = await createServices().identity.accessKeySecret(ds.manager, k.accessKeyId, key);
    expect(opened?.secret).toBe(k.secretAccessKey);
    expect(opened?.user.login).toBe('alice');
  });

  it('create-connection / list-connections / delete-connection manage HTTP task connections; secrets sealed, never printed', async () => {
    const key = 'cli-test-secret-key';
    const secret = 'cli-conn-secret-5f3a9c';
    // the secret from a file (one trailing line break is the file's, not the secret's)
    const file = path.join(tmpDir, 'billing-key.txt');
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    const made = await ok(['create-connection', '--name', 'billing', '--auth', 'API_KEY', '--api-key-name', 'X-Api-Key', '--secret-file', file, '--description', 'billing API'], {
      env: { GATEWAY_SECRET_KEY: key },
    });
    expect(made).toEqual({
      arn: expect.stringMatching(/^arn:aws:events:us-east-1:000000000000:connection\/billing\/[0-9a-f-]{36}$/),
      name: 'billing',
      description: 'billing API',
      authorizationType: 'API_KEY',
      authParameters: { apiKeyName: 'X-Api-Key' },
      createdAt: expect.any(String),
    });
    // from standard input, and from an environment variable named on the command line
    await Promise.all([
      ok(['create-connection', '--name', 'idp', '--auth', 'OAUTH_CLIENT_CREDENTIALS', '--authorization-endpoint', 'https://idp.example.com/token', '--client-id', 'c1', '--secret-stdin'], {
        env: { GATEWAY_SECRET_KEY: key },
        stdin: `${secret}-idp\r\n`,
      }),
      ok(['create-connection', '--name', 'legacy', '--auth', 'BASIC', '--username', 'svc', '--secret-env', 'LEGACY_PASSWORD'], {
        env: { GATEWAY_SECRET_KEY: key, LEGACY_PASSWORD: `${secret}-basic` },
      }),
    ]);
    const listed = await cli(['list-connections'], { env: { GATEWAY_SECRET_KEY: key } });
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(secret);
    expect((JSON.parse(listed.stdout) as { connections: Array<{ name: string }> }).connections.map((c) => c.name)).toEqual(['billing', 'idp', 'legacy']);
    const opened = async (name: string) => new SecretBox(key).open((await ds.getRepository(WorkflowConnectionEntity).findOneByOrFail({ name })).secretCiphertext);
    const row = await ds.getRepository(WorkflowConnectionEntity).findOneByOrFail({ name: 'billing' });
    expect(row.secretCiphertext).not.toContain(secret);
    expect(await opened('billing')).toBe(secret);
    expect(await opened('idp')).toBe(`${secret}-idp`);
    expect(await opened('legacy')).toBe(`${secret}-basic`);

    // a secret as a flag's value is refused before anything is done, and the value is not echoed; the other
    // mistakes get their own one-line errors (a few at a time: each is a process)
    const refusals: Array<[string[], { env?: Record<string, string>; stdin?: string } | undefined, number, RegExp]> = [
      ...[['API_KEY', '--api-key-value'], ['BASIC', '--password'], ['OAUTH_CLIENT_CREDENTIALS', '--client-secret']].map(
        ([auth, flag]): [string[], undefined, number, RegExp] => [
          ['create-connection', '--name', 'x', '--auth', auth, flag, 'leaked-secret-value'],
          undefined,
          2,
          new RegExp(`${flag} would put the secret on the command line, where ps and shell history show it: give it with --secret-stdin, --secret-file PATH or --secret-env NAME`),
        ],
      ),
      [['create-connection', '--name', 'x', '--auth', 'BASIC', '--username', 'u'], undefined, 2, /secret is required: give it with --secret-stdin/],
      [['create-connection', '--name', 'x', '--auth', 'BASIC', '--username', 'u', '--secret-file', file, '--secret-env', 'HOME'], undefined, 2, /give the secret once: --secret-file and --secret-env/],
      [['create-connection', '--name', 'x', '--auth', 'BASIC', '--username', 'u', '--secret-env', 'NOT_SET_ANYWHERE_42'], undefined, 2, /environment variable NOT_SET_ANYWHERE_42 is not set/],
      [['create-connection', '--name', 'x', '--auth', 'BASIC', '--username', 'u', '--secret-file', path.join(tmpDir, 'missing.txt')], undefined, 2, /--secret-file: cannot read .*missing\.txt.* \(ENOENT\)/],
      [['create-connection', '--name', 'x', '--auth', 'BASIC', '--username', 'u', '--secret-stdin'], { stdin: '\n' }, 2, /secret read from --secret-stdin is empty/],
      [['create-connection', '--name', 'billing', '--auth', 'BASIC', '--username', 'u', '--secret-env', 'LEGACY_PASSWORD'], { env: { LEGACY_PASSWORD: 'p' } }, 1, /already exists/],
      [['create-connection', '--name', 'x', '--auth', 'BASIC', '--username', 'u', '--secret-stdin', '--client-id', 'c'], { stdin: 'p' }, 2, /--client-id does not apply/],
      // an OAuth token endpoint over plain HTTP would carry the client secret in clear: refused at save time unless
      // an http:// entry of WORKFLOW_HTTP_ALLOW names its host (listing the host alone is not enough)
      [
        ['create-connection', '--name', 'x', '--auth', 'OAUTH_CLIENT_CREDENTIALS', '--authorization-endpoint', 'http://idp.internal.test/token', '--client-id', 'c', '--secret-env', 'LEGACY_PASSWORD'],
        { env: { LEGACY_PASSWORD: 'p', WORKFLOW_HTTP_ALLOW: 'idp.internal.test' } },
        2,
        /authorizationEndpoint must be an https:\/\/ URL \(plain http:\/\/ is allowed only to hosts WORKFLOW_HTTP_ALLOW lists with an http:\/\/ entry/,
      ],
    ];
    const refused: Result[] = [];
    for (let i = 0; i < refusals.length; i += 5) refused.push(...(await Promise.all(refusals.slice(i, i + 5).map(([args, opts]) => cli(args, opts)))));
    refused.forEach((r, i) => {
      expectFailure(r, refusals[i][2], refusals[i][3]);
      expect(r.stderr).not.toContain('leaked-secret-value');
    });
    // no refused attempt created anything
    expect((await ds.getRepository(WorkflowConnectionEntity).find()).map((c) => c.name).sort()).toEqual(['billing', 'idp', 'legacy']);

    expect(await ok(['delete-connection', '--connection', made.arn])).toMatchObject({ name: 'billing' });
    expectFailure(await cli(['delete-connection', '--connection', 'billing']), 1, /does not exist/);
    expect(await ok(['delete-connection', '--connection', 'idp'])).toMatchObject({ name: 'idp' });
    expect(await ok(['delete-connection', '--connection', 'legacy'])).toMatchObject({ name: 'legacy' });
  }, 60_000);

  it('seed-demo refuses a database that already has accounts (exit 1, no JSON)', async () => {
    const before = await rowCounts(ds);
    const r = await cli(['seed-demo']);
    expectFailure(r, 1, /not empty/);
    expect(await rowCounts(ds)).toEqual(before);
  });

  async function expectNotStoredInPlainText(token: string): Promise<void> {
    const rows: unknown[] = await ds.query('SELECT * FROM access_tokens');
    expect(rows.length).toBeGreaterThan(0);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(token.slice(4)); // not even the random part without its prefix
  }
});

describe('seed-demo on an empty database', () => {
  it('seeds the demo and prints credentials that work', async () => {
    const empty = await throwawayDb('seed');
    let seeded: DataSource | undefined;
    try {
      const demo = await ok(['seed-demo'], { databaseUrl: empty.url });
      expect(demo.tokens.map((t: { user: string }) => t.user)).toEqual(['alice', 'bob', 'carol', 'dave']);
      expect(demo.accessKeys).toEqual([{ user: 'alice', accessKeyId: expect.stringMatching(/^AKIA/), secretAccessKey: expect.any(String) }]);
      seeded = await openDatabase({ database: empty.database });
      for (const t of demo.tokens as Array<{ user: string; token: string }>) {
        const v = (await authenticateBearer(seeded, `Bearer ${t.token}`)) as UserViewer;
        expect(v.user.login).toBe(t.user);
      }
      expect(await seeded.getRepository(RepositoryEntity).count()).toBe(4);
      const stored = JSON.stringify(await seeded.query('SELECT * FROM access_tokens'));
      for (const t of demo.tokens as Array<{ token: string }>) expect(stored).not.toContain(t.token);
    } finally {
      if (seeded?.isInitialized) await seeded.destroy();
      await empty.drop();
    }
  });
});

describe('bad arguments: exit 2, a one-line "error:" with a hint to run help, nothing written', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['no command', [], /no command/],
    ['unknown command', ['frobnicate', '--login', 'x'], /unknown command "frobnicate"/],
    ['flag before the command', ['--login', 'x'], /command/],
    ['unknown flag', ['create-user', '--login', 'x', '--admin'], /unknown flag --admin/],
    ['missing required flag', ['create-user', '--name', 'X'], /missing required flag --login/],
    ['flag missing its value (last)', ['create-user', '--login'], /--login is missing its value/],
    ['flag missing its value (followed by a flag)', ['create-user', '--login', '--site-admin'], /--login is missing its value/],
    ['empty value', ['create-user', '--login='], /--login needs a non-empty value/],
    ['value given to a switch', ['create-user', '--login', 'x', '--site-admin=yes'], /--site-admin does not take a value/],
    ['positional argument', ['create-user', '--login', 'x', 'extra'], /unexpected argument "extra"/],
    ['flag given twice', ['create-user', '--login', 'x', '--login', 'y'], /--login is given more than once/],
    ['invalid calendar role', ['create-user', '--login', 'x', '--calendar-role', 'admin'], /--calendar-role must be one of editor, author/],
    ['invalid org role', ['add-member', '--org', 'acme', '--user', 'alice', '--role', 'owner'], /--role must be one of admin, security_manager, member/],
    ['create-repo without name', ['create-repo', '--owner', 'acme', '--private'], /missing required flag --name/],
    ['grant with a malformed repo', ['grant', '--repo', 'api', '--user', 'alice', '--permission', 'read'], /owner\/name/],
    ['invalid repository permission', ['grant', '--repo', 'acme/api', '--user', 'alice', '--permission', 'maintain'], /--permission must be one of admin, write, read/],
    ['invalid token kind', ['create-token', '--user', 'alice', '--kind', 'oauth', '--scopes', 'repo'], /--kind must be one of classic, fine_grained/],
    ['classic without scopes', ['create-token', '--user', 'alice', '--kind', 'classic'], /missing required flag --scopes/],
    ['unknown scope', ['create-token', '--user', 'alice', '--kind', 'classic', '--scopes', 'repo,admin'], /unknown scope "admin"/],
    ['fine_grained with --scopes', ['create-token', '--user', 'alice', '--kind', 'fine_grained', '--repo', 'acme/api', '--permissions', 'contents:read', '--scopes', 'repo'], /--scopes is for --kind classic/],
    ['fine_grained without repo', ['create-token', '--user', 'alice', '--kind', 'fine_grained', '--permissions', 'contents:read'], /missing required flag --repo/],
    ['fine_grained without permissions', ['create-token', '--user', 'alice', '--kind', 'fine_grained', '--repo', 'acme/api'], /missing required flag --permissions/],
    ['permission without access', ['create-token', '--user', 'alice', '--kind', 'fine_grained', '--repo', 'acme/api', '--permissions', 'contents'], /permission:read/],
    ['unknown permission', ['create-token', '--user', 'alice', '--kind', 'fine_grained', '--repo', 'acme/api', '--permissions', 'secrets:read'], /unknown permission "secrets"/],
    ['invalid permission access', ['create-token', '--user', 'alice', '--kind', 'fine_grained', '--repo', 'acme/api', '--permissions', 'contents:admin'], /contents must be read or write/],
    ['expires-in-days zero', ['create-token', '--user', 'alice', '--kind', 'classic', '--scopes', 'repo', '--expires-in-days', '0'], /--expires-in-days/],
    ['expires-in-days not a number', ['create-token', '--user', 'alice', '--kind', 'classic', '--scopes', 'repo', '--expires-in-days', 'ten'], /--expires-in-days/],
    ['create-access-key without user', ['create-access-key'], /missing required flag --user/],
    ['seed-demo with a flag', ['seed-demo', '--force'], /unknown flag --force/],
    ['help for an unknown command', ['help', 'frobnicate'], /unknown command "frobnicate"/],
  ];

  it('each bad command line is rejected before anything is written', async () => {
    const before = await rowCounts(ds);
    const results: Array<[string, Result, RegExp]> = [];
    // A few at a time: they fail before opening the database, so they are quick.
    for (let i = 0; i < cases.length; i += 6) {
      const batch = cases.slice(i, i + 6);
      const rs = await Promise.all(batch.map(([, args]) => cli(args)));
      batch.forEach(([name, , re], j) => results.push([name, rs[j], re]));
    }
    for (const [name, r, re] of results) {
      try {
        expectFailure(r, 2, re);
        expect(r.stderr).toMatch(/help/);
      } catch (e) {
        throw new Error(`case "${name}": ${(e as Error).message}\nstderr: ${r.stderr}`);
      }
    }
    expect(await rowCounts(ds)).toEqual(before);
  }, 60_000);

  it('argument errors are reported before the database is even opened', async () => {
    const file = path.join(tmpDir, 'never-opened.sqlite');
    const rs = await Promise.all(
      [
        ['create-user', '--login', 'x', '--bogus'],
        ['create-token', '--user', 'alice', '--kind', 'classic', '--scopes', 'nope'],
      ].map((args) => cli(args, { databaseUrl: `sqlite:${file}` })),
    );
    for (const r of rs) expectFailure(r, 2);
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('errors from the service, configuration and database', () => {
  it('reports validation (exit 2), not found and conflict (exit 1) without writing anything', async () => {
    const before = await rowCounts(ds);
    const cases: Array<[string[], number, RegExp]> = [
      [['create-user', '--login', 'alice'], 1, /login "alice" is already taken/],
      [['create-user', '--login', 'bad--login'], 2, /login "bad--login" is invalid/],
      [['add-member', '--org', 'nobody', '--user', 'alice', '--role', 'member'], 1, /no organization with login "nobody"/],
      [['add-member', '--org', 'acme', '--user', 'acme', '--role', 'member'], 1, /no user with login "acme"/],
      [['create-repo', '--owner', 'acme', '--name', 'API'], 1, /already exists/],
      [['create-repo', '--owner', 'acme', '--name', 'x.git'], 2, /repository name "x.git" is invalid/],
      [['grant', '--repo', 'acme/missing', '--user', 'alice', '--permission', 'read'], 1, /no repository acme\/missing/],
      [['create-token', '--user', 'nobody', '--kind', 'classic', '--scopes', 'repo'], 1, /no user with login "nobody"/],
      [['create-token', '--user', 'alice', '--kind', 'fine_grained', '--repo', 'acme/missing', '--permissions', 'contents:read'], 1, /no repository acme\/missing/],
      [['create-access-key', '--user', 'acme'], 1, /no user with login "acme"/],
    ];
    const rs = await Promise.all(cases.map(([args]) => cli(args)));
    cases.forEach(([args, code, re], i) => {
      try {
        expectFailure(rs[i], code, re);
      } catch (e) {
        throw new Error(`${args.join(' ')}: ${(e as Error).message}\nstderr: ${rs[i].stderr}`);
      }
    });
    expect(await rowCounts(ds)).toEqual(before);
  }, 60_000);

  it('a configuration error exits 2', async () => {
    const [scheme, level] = await Promise.all([
      cli(['create-org', '--login', 'x'], { databaseUrl: 'mysql://root@localhost/db' }),
      cli(['create-org', '--login', 'x'], { env: { LOG_LEVEL: 'loud' } }),
    ]);
    expectFailure(scheme, 2, /DATABASE_URL must start with sqlite: or postgres:\/\//);
    expectFailure(level, 2, /LOG_LEVEL/);
  });

  it('an unreachable database exits 1 with a one-line message', async () => {
    const r = await cli(['create-org', '--login', 'x'], { databaseUrl: 'postgres://postgres@127.0.0.1:1/none' });
    expectFailure(r, 1, /cannot open the database/);
  });
});
