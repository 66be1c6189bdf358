/**
 * The demo data `npm start` seeds into an empty database: one organization with members in every role,
 * repositories with different security settings, tokens of both kinds and a workflow access key.
 * Domain modules extend `seedDemo` with their own demo data.
 */
import * as fs from 'node:fs';
import type { DataSource } from 'typeorm';
import type { AppConfig, DatabaseConfig } from '../config';
import { writeTransaction } from '../db/transaction';
import type { Services } from '../services';
import { DemoCalendar, seedCalendarDemo } from './demo-calendar';
import { DemoSecretScanning, seedSecretScanningDemo } from './demo-secret-scanning';

export interface DemoCredentials {
  tokens: Array<{ user: string; kind: string; description: string; token: string }>;
  /** secretAccessKey only on the run that created the key: it is never stored in the credentials file. */
  accessKeys: Array<{ user: string; accessKeyId: string; secretAccessKey?: string }>;
  secretScanning?: DemoSecretScanning;
  calendar?: DemoCalendar;
}

/** `config`: the calendar's clock and site timezone (default: the environment's). */
export async function seedDemo(dataSource: DataSource, services: Services, secretKey?: string, config?: AppConfig): Promise<DemoCredentials> {
  const credentials = await seedIdentityDemo(dataSource, services, secretKey);
  credentials.secretScanning = await seedSecretScanningDemo(dataSource, services);
  credentials.calendar = await seedCalendarDemo(dataSource, services, config);
  return credentials;
}

async function seedIdentityDemo(dataSource: DataSource, services: Services, secretKey?: string): Promise<DemoCredentials> {
  return writeTransaction(dataSource, async (db) => {
    const id = services.identity;
    await id.createUser(db, { login: 'alice', name: 'Alice Admin', email: 'alice@example.com', calendarRole: 'editor' });
    await id.createUser(db, { login: 'bob', name: 'Bob Security', email: 'bob@example.com', calendarRole: 'author' });
    await id.createUser(db, { login: 'carol', name: 'Carol Developer', email: 'carol@example.com', calendarRole: 'contributor' });
    await id.createUser(db, { login: 'dave', name: 'Dave Reader', email: 'dave@example.com', calendarRole: 'subscriber' });
    await id.createOrganization(db, { login: 'acme', name: 'Acme Corp' });
    await id.addMember(db, { org: 'acme', user: 'alice', role: 'admin' });
    await id.addMember(db, { org: 'acme', user: 'bob', role: 'security_manager' });
    await id.addMember(db, { org: 'acme', user: 'carol', role: 'member' });
    await id.createRepository(db, {
      owner: 'acme',
      name: 'api',
      private: true,
      description: 'Payments API',
      secretScanning: true,
      pushProtection: true,
      advancedSecurity: true,
    });
    await id.createRepository(db, { owner: 'acme', name: 'website', private: false, description: 'Public website', secretScanning: true, advancedSecurity: true });
    await id.createRepository(db, { owner: 'acme', name: 'legacy', private: true, description: 'Secret scanning off' });
    await id.createRepository(db, { owner: 'alice', name: 'dotfiles', private: true, secretScanning: true });
    await id.grant(db, { repo: 'acme/api', user: 'carol', permission: 'write' });
    await id.grant(db, { repo: 'acme/website', user: 'dave', permission: 'read' });

    const tokens: DemoCredentials['tokens'] = [];
    const add = async (user: string, description: string, input: Parameters<typeof id.createToken>[1]) => {
      const { token } = await id.createToken(db, input);
      tokens.push({ user, kind: input.kind, description, token });
    };
    await add('alice', 'org admin, calendar editor; classic repo, security_events, admin:org, workflow, calendar', {
      user: 'alice',
      kind: 'classic',
      scopes: ['repo', 'security_events', 'admin:org', 'workflow', 'calendar'],
      note: 'demo',
    });
    await add('bob', 'security manager, calendar author; classic security_events, calendar', { user: 'bob', kind: 'classic', scopes: ['security_events', 'calendar'], note: 'demo' });
    await add('carol', 'developer; fine-grained on acme/api: contents write, secret_scanning_alerts read', {
      user: 'carol',
      kind: 'fine_grained',
      repos: ['acme/api'],
      permissions: { contents: 'write', secret_scanning_alerts: 'read' },
      note: 'demo',
    });
    await add('dave', 'subscriber; classic public_repo', { user: 'dave', kind: 'classic', scopes: ['public_repo'], note: 'demo' });
    const key = await id.createAccessKey(db, { user: 'alice' }, secretKey);
    return { tokens, accessKeys: [{ user: 'alice', accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey }] };
  });
}

/** Where the demo's plain tokens are kept for later starts: next to the SQLite file (never for PostgreSQL). */
export function demoCredentialsFile(database: DatabaseConfig): string | undefined {
  if (database.type !== 'sqlite' || database.path === ':memory:') return undefined;
  return `${database.path}.demo-credentials.json`;
}

/**
 * Tokens are stored hashed; keep the demo's plain ones in a local, git-ignored file (mode 600) so later
 * starts can print them again. Access-key secrets are not kept: like `create-access-key`, the secret is
 * shown once, by the run that created it (it stays encrypted in the database for SigV4 checks).
 */
export function saveDemoCredentials(database: DatabaseConfig, demo: DemoCredentials): void {
  const file = demoCredentialsFile(database);
  if (file) fs.writeFileSync(file, JSON.stringify(withoutSecrets(demo), null, 2), { mode: 0o600 });
}

function withoutSecrets(demo: DemoCredentials): DemoCredentials {
  return { ...demo, accessKeys: demo.accessKeys.map(({ user, accessKeyId }) => ({ user, accessKeyId })) };
}

/** The demo credentials of an earlier run, never with an access-key secret (a file from an older version loses it). */
export function loadDemoCredentials(database: DatabaseConfig): DemoCredentials | undefined {
  const file = demoCredentialsFile(database);
  if (!file || !fs.existsSync(file)) return undefined;
  const demo = JSON.parse(fs.readFileSync(file, 'utf8')) as DemoCredentials;
  if (demo.accessKeys?.some((k) => k.secretAccessKey !== undefined)) saveDemoCredentials(database, demo);
  return withoutSecrets(demo);
}
