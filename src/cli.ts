/**
 * The admin CLI: `npm run admin -- <command> [flags]` (or `node dist/src/cli.js <command> [flags]`).
 *
 * Thin on purpose: parse and check the arguments, open the database named by DATABASE_URL (which runs
 * pending migrations), call IdentityService, print ONE JSON document (camelCase) on stdout, close, exit.
 * The rules live in the service; this file only adds pure argument checks so that a mistyped command
 * fails before the database is touched.
 *
 * Exit codes: 0 done; 1 not found / conflict / database not empty / database unreachable / unexpected
 * failure; 2 bad arguments, invalid input or bad configuration. Errors are one line on stderr starting
 * with "error: " and never contain a token or secret (those are only ever printed once, on stdout).
 */
import './db/utc';
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import type { DataSource, EntityManager } from 'typeorm';
import { In } from 'typeorm';
import {
  AccountEntity,
  CALENDAR_ROLES,
  ORG_ROLES,
  REPOSITORY_PERMISSIONS,
  RepositoryEntity,
} from '../entities';
import { openDatabase } from '../ormconfig';
import { AppConfig, ConfigError, loadConfig } from './config';
import { isAppError, toAppError } from './errors/app-error';
import { saveDemoCredentials, seedDemo } from './seed/demo';
import { createServices, Services } from './services';
import { CLASSIC_SCOPES, FINE_GRAINED_PERMISSIONS, parseFullName } from './services/identity/identity.service';

const HELP_HINT = 'run "npm run admin -- help" for usage';
/** Access levels of a fine-grained permission (the service accepts exactly these). */
const FINE_GRAINED_ACCESS = ['read', 'write'] as const;
const TOKEN_KINDS = ['classic', 'fine_grained'] as const;
const MAX_EXPIRES_IN_DAYS = 36_500;

// ---------------------------------------------------------------------------------------------------
// errors

/** Bad command line: exit 2 with a hint to run `help`. */
class UsageError extends Error {}

/** A failure the CLI itself reports (not a service error), with its exit code. */
class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------------
// command table

interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
}

type Values = Record<string, string | boolean | string[] | undefined>;

interface RunEnv {
  ds: DataSource;
  services: Services;
  config: AppConfig;
}

/** Runs the prepared command against the open database and returns the document to print. */
type Runner = (env: RunEnv) => Promise<unknown>;

interface CommandSpec {
  summary: string;
  /** Usage line(s) after the command name. */
  usage: string[];
  flags: Record<string, FlagSpec>;
  /** Pure argument checks (no database); returns what to run. */
  prepare(values: Values): Runner;
}

const str: FlagSpec = { type: 'string' };
const bool: FlagSpec = { type: 'boolean' };

const COMMANDS: Record<string, CommandSpec> = {
  'create-user': {
    summary: 'Create a user account.',
    usage: [`--login L [--name N] [--email E] [--calendar-role ${CALENDAR_ROLES.join('|')}] [--site-admin]`],
    flags: { login: str, name: str, email: str, 'calendar-role': str, 'site-admin': bool },
    prepare(v) {
      const input = {
        login: required(v, 'login'),
        name: optional(v, 'name') ?? null,
        email: optional(v, 'email') ?? null,
        calendarRole: oneOfOptional(v, 'calendar-role', CALENDAR_ROLES) ?? null,
        siteAdmin: flagOn(v, 'site-admin'),
      };
      return async ({ ds, services }) => userJson(await services.identity.createUser(ds.manager, input));
    },
  },

  'create-org': {
    summary: 'Create an organization account.',
    usage: ['--login L [--name N]'],
    flags: { login: str, name: str },
    prepare(v) {
      const input = { login: required(v, 'login'), name: optional(v, 'name') ?? null };
      return async ({ ds, services }) => orgJson(await services.identity.createOrganization(ds.manager, input));
    },
  },

  'add-member': {
    summary: "Add a user to an organization, or change a member's role.",
    usage: [`--org O --user U --role ${ORG_ROLES.join('|')}`],
    flags: { org: str, user: str, role: str },
    prepare(v) {
      const input = { org: required(v, 'org'), user: required(v, 'user'), role: oneOf(v, 'role', ORG_ROLES) };
      return async ({ ds, services }) => {
        const m = await services.identity.addMember(ds.manager, input);
        const logins = await loginsById(services, ds.manager, [m.organizationId, m.userId]);
        return {
          id: m.id,
          organization: logins.get(m.organizationId),
          user: logins.get(m.userId),
          role: m.role,
          createdAt: m.createdAt,
        };
      };
    },
  },

  'create-repo': {
    summary: 'Create a repository owned by a user or an organization.',
    usage: [
      '--owner O --name N [--private] [--secret-scanning] [--push-protection] [--advanced-security] [--delegated-alert-dismissal] [--description D]',
    ],
    flags: {
      owner: str,
      name: str,
      private: bool,
      'secret-scanning': bool,
      'push-protection': bool,
      'advanced-security': bool,
      'delegated-alert-dismissal': bool,
      description: str,
    },
    prepare(v) {
      const input = {
        owner: required(v, 'owner'),
        name: required(v, 'name'),
        description: optional(v, 'description') ?? null,
        // An absent switch is left to the service's default (e.g. --push-protection implies secret scanning).
        private: flagOn(v, 'private'),
        secretScanning: flagOn(v, 'secret-scanning'),
        pushProtection: flagOn(v, 'push-protection'),
        advancedSecurity: flagOn(v, 'advanced-security'),
        delegatedAlertDismissal: flagOn(v, 'delegated-alert-dismissal'),
      };
      return async ({ ds, services }) => {
        const r = await services.identity.createRepository(ds.manager, input);
        const [fullName] = await repositoryFullNames(services, ds.manager, [r.id]);
        return {
          id: r.id,
          owner: fullName.slice(0, fullName.indexOf('/')),
          name: r.name,
          fullName,
          description: r.description,
          private: r.private,
          secretScanning: r.secretScanning,
          pushProtection: r.pushProtection,
          advancedSecurity: r.advancedSecurity,
          delegatedAlertDismissal: r.delegatedAlertDismissal,
          createdAt: r.createdAt,
        };
      };
    },
  },

  grant: {
    summary: "Grant a user a direct permission on a repository (or change it).",
    usage: [`--repo O/N --user U --permission ${REPOSITORY_PERMISSIONS.join('|')}`],
    flags: { repo: str, user: str, permission: str },
    prepare(v) {
      const input = {
        repo: repoArg(required(v, 'repo')),
        user: required(v, 'user'),
        permission: oneOf(v, 'permission', REPOSITORY_PERMISSIONS),
      };
      return async ({ ds, services }) => {
        const c = await services.identity.grant(ds.manager, input);
        const [repository] = await repositoryFullNames(services, ds.manager, [c.repositoryId]);
        const logins = await loginsById(services, ds.manager, [c.userId]);
        return { id: c.id, repository, user: logins.get(c.userId), permission: c.permission, createdAt: c.createdAt };
      };
    },
  },

  'create-token': {
    summary: 'Create a personal access token. The token is printed once; only its hash is stored.',
    usage: [
      '--user U --kind classic --scopes S[,S...] [--note X] [--expires-in-days N]',
      '--user U --kind fine_grained --repo O/N [--repo O/N ...] --permissions P:read|write[,P:read|write...] [--note X] [--expires-in-days N]',
    ],
    flags: {
      user: str,
      kind: str,
      scopes: str,
      repo: { type: 'string', multiple: true },
      permissions: str,
      note: str,
      'expires-in-days': str,
    },
    prepare(v) {
      const user = required(v, 'user');
      const kind = oneOf(v, 'kind', TOKEN_KINDS);
      const note = optional(v, 'note') ?? null;
      const expiresInDays = optional(v, 'expires-in-days');
      const expiresAt = expiresInDays === undefined ? null : expiryFromDays(expiresInDays);
      const repos = (v.repo as string[] | undefined) ?? [];
      let input: Parameters<Services['identity']['createToken']>[1];
      if (kind === 'classic') {
        if (repos.length || v.permissions !== undefined) {
          throw new UsageError('--repo and --permissions are for --kind fine_grained; a classic token takes --scopes');
        }
        input = { user, kind, scopes: parseScopes(required(v, 'scopes')), note, expiresAt };
      } else {
        if (v.scopes !== undefined) {
          throw new UsageError('--scopes is for --kind classic; a fine_grained token takes --repo and --permissions');
        }
        if (!repos.length) throw new UsageError('missing required flag --repo (a fine_grained token needs at least one)');
        input = {
          user,
          kind,
          repos: repos.map((r) => repoArg(nonEmpty('repo', r))),
          permissions: parsePermissions(required(v, 'permissions')),
          note,
          expiresAt,
        };
      }
      return async ({ ds, services }) => {
        const { token, record } = await services.identity.createToken(ds.manager, input);
        const logins = await loginsById(services, ds.manager, [record.userId]);
        return {
          id: record.id,
          user: logins.get(record.userId),
          kind: record.kind,
          token,
          hint: record.tokenHint,
          note: record.note,
          scopes: record.scopes,
          permissions: record.permissions,
          repositories: record.repositoryIds ? await repositoryFullNames(services, ds.manager, record.repositoryIds) : null,
          expiresAt: record.expiresAt,
          createdAt: record.createdAt,
        };
      };
    },
  },

  'create-access-key': {
    summary: 'Create a workflow access key (SigV4). The secret is printed once; it is stored encrypted.',
    usage: ['--user U'],
    flags: { user: str },
    prepare(v) {
      const input = { user: required(v, 'user') };
      return async ({ ds, services, config }) => {
        const { accessKeyId, secretAccessKey, record } = await services.identity.createAccessKey(ds.manager, input, config.secretKey);
        const logins = await loginsById(services, ds.manager, [record.userId]);
        return {
          id: record.id,
          user: logins.get(record.userId),
          accessKeyId,
          secretAccessKey,
          status: record.status,
          createdAt: record.createdAt,
        };
      };
    },
  },

  'seed-demo': {
    summary: 'Seed the demo organization, users, repositories, tokens and access key into an empty database.',
    usage: [''],
    flags: {},
    prepare() {
      return async ({ ds, services, config }) => {
        const accounts = await ds.getRepository(AccountEntity).count();
        if (accounts > 0) {
          throw new CliFailure(
            `the database is not empty (it has ${accounts} account${accounts === 1 ? '' : 's'}); seed-demo only seeds an empty database`,
            1,
          );
        }
        const demo = await seedDemo(ds, services, config.secretKey);
        saveDemoCredentials(config.database, demo);
        return demo;
      };
    },
  },
};

// ---------------------------------------------------------------------------------------------------
// argument helpers (pure)

/** true when a switch is given; undefined (the service's default) when not. */
function flagOn(v: Values, flag: string): true | undefined {
  return v[flag] === true ? true : undefined;
}

function nonEmpty(flag: string, value: string): string {
  if (value.trim() === '') throw new UsageError(`flag --${flag} needs a non-empty value`);
  return value;
}

function optional(v: Values, flag: string): string | undefined {
  const value = v[flag];
  if (value === undefined) return undefined;
  return nonEmpty(flag, value as string);
}

function required(v: Values, flag: string): string {
  const value = optional(v, flag);
  if (value === undefined) throw new UsageError(`missing required flag --${flag}`);
  return value;
}

function oneOfOptional<T extends string>(v: Values, flag: string, allowed: readonly T[]): T | undefined {
  const value = optional(v, flag);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

function oneOf<T extends string>(v: Values, flag: string, allowed: readonly T[]): T {
  const value = oneOfOptional(v, flag, allowed);
  if (value === undefined) throw new UsageError(`missing required flag --${flag}`);
  return value;
}

/** owner/name, checked with the service's own parser. */
function repoArg(value: string): string {
  try {
    parseFullName(value);
  } catch (e) {
    if (isAppError(e)) throw new UsageError(`--repo ${e.message}`);
    throw e;
  }
  return value;
}

function splitList(flag: string, raw: string): string[] {
  const items = raw.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw new UsageError(`--${flag} is a comma-separated list without empty items (got "${raw}")`);
  return items;
}

function parseScopes(raw: string): string[] {
  const scopes = splitList('scopes', raw);
  const unknown = scopes.filter((s) => !(CLASSIC_SCOPES as readonly string[]).includes(s));
  if (unknown.length) {
    throw new UsageError(`unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.map((s) => `"${s}"`).join(', ')} in --scopes; known: ${CLASSIC_SCOPES.join(', ')}`);
  }
  return scopes;
}

function parsePermissions(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of splitList('permissions', raw)) {
    const colon = item.indexOf(':');
    const key = colon < 0 ? item : item.slice(0, colon).trim();
    const access = colon < 0 ? '' : item.slice(colon + 1).trim();
    if (colon < 0 || key === '' || access === '') {
      throw new UsageError(`--permissions items are written permission:read or permission:write (got "${item}")`);
    }
    if (!(FINE_GRAINED_PERMISSIONS as readonly string[]).includes(key)) {
      throw new UsageError(`unknown permission "${key}" in --permissions; known: ${FINE_GRAINED_PERMISSIONS.join(', ')}`);
    }
    if (!(FINE_GRAINED_ACCESS as readonly string[]).includes(access)) {
      throw new UsageError(`permission ${key} must be read or write (got "${access}")`);
    }
    if (Object.prototype.hasOwnProperty.call(out, key)) throw new UsageError(`permission ${key} is given more than once in --permissions`);
    out[key] = access;
  }
  return out;
}

function expiryFromDays(raw: string): Date {
  const s = raw.trim();
  const days = /^\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(days) || days < 1 || days > MAX_EXPIRES_IN_DAYS) {
    throw new UsageError(`--expires-in-days must be a whole number of days from 1 to ${MAX_EXPIRES_IN_DAYS} (got "${raw}")`);
  }
  return new Date(Date.now() + days * 86_400_000);
}

/** node:util parseArgs (strict) with the errors rewritten as one-line usage errors. */
function parseFlags(command: string, spec: CommandSpec, args: string[]): { values: Values; help: boolean } {
  const options = { ...spec.flags, help: { type: 'boolean' as const, short: 'h' } };
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: false, tokens: true });
  } catch (e) {
    throw new UsageError(describeParseError(command, e));
  }
  const seen = new Set<string>();
  for (const t of parsed.tokens ?? []) {
    if (t.kind !== 'option') continue;
    if (seen.has(t.name) && !(options as Record<string, FlagSpec>)[t.name].multiple) {
      throw new UsageError(`flag --${t.name} is given more than once`);
    }
    seen.add(t.name);
  }
  const { help, ...values } = parsed.values as Values;
  return { values, help: help === true };
}

function describeParseError(command: string, e: unknown): string {
  const err = e as { code?: string; message?: string };
  const message = String(err.message ?? e);
  const quoted = /'([^']+)'/.exec(message)?.[1];
  const flag = quoted?.replace(/ <value>$/, '');
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag ${flag ?? ''} for ${command}`.replace('  ', ' ');
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(message)) return `flag ${flag} does not take a value`;
      if (/ambiguous/.test(message)) return `flag ${flag} is missing its value (write ${flag}=VALUE for a value that starts with "-")`;
      return `flag ${flag} is missing its value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${quoted ?? ''}" for ${command} (flags are written --flag value)`;
    default:
      return oneLine(message);
  }
}

// ---------------------------------------------------------------------------------------------------
// presenters (the one JSON document each command prints)

function userJson(a: AccountEntity) {
  return {
    id: a.id,
    login: a.login,
    type: a.type,
    name: a.name,
    email: a.email,
    calendarRole: a.calendarRole,
    siteAdmin: a.siteAdmin,
    createdAt: a.createdAt,
  };
}

function orgJson(a: AccountEntity) {
  return { id: a.id, login: a.login, type: a.type, name: a.name, createdAt: a.createdAt };
}

async function loginsById(services: Services, db: EntityManager, ids: number[]): Promise<Map<number, string>> {
  const accounts = await services.identity.accountsByIds(db, [...new Set(ids)]);
  return new Map(accounts.map((a) => [a.id, a.login]));
}

/** owner/name of each repository id, in the order given. */
async function repositoryFullNames(services: Services, db: EntityManager, ids: number[]): Promise<string[]> {
  const repos = await db.getRepository(RepositoryEntity).find({ where: { id: In([...new Set(ids)]) } });
  const byId = new Map(repos.map((r) => [r.id, r]));
  const logins = await loginsById(services, db, repos.map((r) => r.ownerId));
  return ids.map((id) => {
    const r = byId.get(id);
    return r ? `${logins.get(r.ownerId)}/${r.name}` : `#${id}`;
  });
}

// ---------------------------------------------------------------------------------------------------
// usage

function commandUsage(name: string): string[] {
  return COMMANDS[name].usage.map((u) => `  ${name}${u ? ` ${u}` : ''}`);
}

function usage(only?: string): string {
  if (only) {
    return [`Usage: npm run admin -- ${commandUsage(only)[0].trim()}`, ...commandUsage(only).slice(1).map((l) => `       npm run admin -- ${l.trim()}`), '', COMMANDS[only].summary, ''].join('\n');
  }
  const lines = [
    'Usage: npm run admin -- <command> [flags]',
    '   or: node dist/src/cli.js <command> [flags]   (after npm run build)',
    '',
    'Administers users, organizations, repositories, tokens and access keys in the database named by',
    'DATABASE_URL (default: the SQLite file data/gateway.sqlite); pending migrations run first.',
    'Each command prints one JSON document on stdout.',
    '',
    'Commands:',
  ];
  for (const name of Object.keys(COMMANDS)) {
    lines.push(...commandUsage(name), `      ${COMMANDS[name].summary}`);
  }
  lines.push(
    '  help [command]',
    '      Show this text (or one command\'s usage).',
    '',
    `Classic scopes:             ${CLASSIC_SCOPES.join(', ')}`,
    `Fine-grained permissions:   ${FINE_GRAINED_PERMISSIONS.join(', ')} (each :read or :write)`,
    '',
    'Environment: DATABASE_URL (sqlite:<path> or postgres://...), GATEWAY_SECRET_KEY (encrypts access-key secrets).',
    'Tokens and access-key secrets are printed once; only a hash (tokens) or ciphertext (secrets) is stored.',
    'Exit status: 0 done, 1 not found / already exists / database not empty or unreachable, 2 bad arguments or configuration.',
    '',
  );
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------
// main

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}

/** A short, single-line description of an unexpected error (no stack). */
function describeError(e: unknown): string {
  if (e instanceof Error) {
    if (e.message) return oneLine(e.message);
    const inner = (e as { errors?: unknown[] }).errors; // AggregateError (e.g. ECONNREFUSED on ::1 and 127.0.0.1)
    if (Array.isArray(inner) && inner[0] instanceof Error && inner[0].message) return oneLine(inner[0].message);
    const code = (e as { code?: string }).code;
    return code ?? e.name;
  }
  return oneLine(String(e));
}

interface Outcome {
  code: number;
  stdout?: string;
  stderr?: string;
}

async function run(argv: string[]): Promise<Outcome> {
  const [command, ...rest] = argv;
  if (command === undefined) return usageError('no command given');
  if (command === 'help' || command === '--help' || command === '-h') {
    if (rest.length > 1) return usageError('help takes at most one command name');
    if (rest.length === 1 && !(rest[0] in COMMANDS)) return usageError(`unknown command "${rest[0]}"`);
    return { code: 0, stdout: usage(rest[0]) };
  }
  const spec = Object.prototype.hasOwnProperty.call(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!spec) {
    return usageError(command.startsWith('-') ? `expected a command before ${command.split('=')[0]}` : `unknown command "${command}"`);
  }

  let runner: Runner;
  try {
    const { values, help } = parseFlags(command, spec, rest);
    if (help) return { code: 0, stdout: usage(command) };
    runner = spec.prepare(values);
  } catch (e) {
    if (e instanceof UsageError) return usageError(e.message);
    throw e;
  }

  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) return { code: 2, stderr: `error: configuration: ${oneLine(e.message)}` };
    throw e;
  }

  let ds: DataSource;
  try {
    ds = await openDatabase(config);
  } catch (e) {
    return { code: 1, stderr: `error: cannot open the database: ${describeError(e)}` };
  }
  try {
    const doc = await runner({ ds, services: createServices(), config });
    return { code: 0, stdout: JSON.stringify(doc, null, 2) };
  } catch (e) {
    if (e instanceof CliFailure) return { code: e.exitCode, stderr: `error: ${oneLine(e.message)}` };
    const appError = toAppError(e);
    if (appError) {
      return { code: appError.code === 'BAD_USER_INPUT' ? 2 : 1, stderr: `error: ${oneLine(appError.message)}` };
    }
    return { code: 1, stderr: `error: ${command} failed: ${describeError(e)}` };
  } finally {
    await ds.destroy().catch(() => undefined);
  }
}

function usageError(message: string): Outcome {
  return { code: 2, stderr: `error: ${message}; ${HELP_HINT}` };
}

function finish(outcome: Outcome): void {
  if (outcome.stderr) process.stderr.write(outcome.stderr + '\n');
  const exit = () => process.exit(outcome.code);
  // Exit once stdout is flushed, so an open handle can never keep the CLI alive.
  if (outcome.stdout !== undefined) process.stdout.write(outcome.stdout.endsWith('\n') ? outcome.stdout : outcome.stdout + '\n', exit);
  else exit();
}

run(process.argv.slice(2)).then(finish, (e: unknown) => finish({ code: 1, stderr: `error: ${describeError(e)}` }));
