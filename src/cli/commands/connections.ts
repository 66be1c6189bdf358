/**
 * `create-connection`, `list-connections`, `delete-connection`: connections of workflow HTTP tasks (EventBridge-shaped:
 * API key, basic or OAuth client credentials). The secret is stored sealed under the server key and never printed.
 * It is never a flag's value: a command line is visible to every user of the machine (`ps`, /proc/<pid>/cmdline)
 * and kept in shell history. It comes from standard input, a file or a named environment variable, as
 * `docker login --password-stdin` or `gh secret set` take theirs.
 */
import * as fs from 'node:fs';
import { CONNECTION_AUTH_TYPES } from '../../services/workflow/connections.service';
import { writeTransaction } from '../../db/transaction';
import { flagOn, oneOf, optional, required } from '../args';
import { bool, CommandSpec, str, UsageError, Values } from '../spec';

/** Far above any secret the service accepts (512 characters): a larger input is a mistake, not read whole. */
const MAX_SECRET_BYTES = 64 * 1024;
const SECRET_SOURCES = '--secret-stdin, --secret-file PATH or --secret-env NAME';
const SECRET_USAGE = '(--secret-stdin | --secret-file PATH | --secret-env NAME)';

/** The flags that once carried the secret, by authorization type. */
const SECRET_FLAG: Record<string, string> = { API_KEY: 'api-key-value', BASIC: 'password', OAUTH_CLIENT_CREDENTIALS: 'client-secret' };

/** One trailing line break is the file's or echo's, not the secret's. */
const chomp = (s: string) => s.replace(/\r?\n$/, '');

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    process.stdin.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_SECRET_BYTES) {
        process.stdin.destroy();
        return reject(new UsageError(`--secret-stdin: standard input is longer than ${MAX_SECRET_BYTES} bytes`));
      }
      chunks.push(c);
    });
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', (e) => reject(new UsageError(`--secret-stdin: cannot read standard input (${(e as NodeJS.ErrnoException).code ?? e.message})`)));
  });
}

/** The connection's secret from exactly one of the sources; errors name the source, never the secret. */
async function readSecret(v: Values): Promise<string> {
  const fromStdin = flagOn(v, 'secret-stdin');
  const file = optional(v, 'secret-file');
  const env = optional(v, 'secret-env');
  const given = [fromStdin && '--secret-stdin', file !== undefined && '--secret-file', env !== undefined && '--secret-env'].filter(Boolean);
  if (given.length === 0) throw new UsageError(`the connection's secret is required: give it with ${SECRET_SOURCES}`);
  if (given.length > 1) throw new UsageError(`give the secret once: ${given.join(' and ')} are both given`);
  let secret: string;
  if (fromStdin) {
    if (process.stdin.isTTY) throw new UsageError('--secret-stdin reads a pipe or a file (e.g. < secret.txt), and standard input is a terminal');
    secret = chomp(await readStdin());
  } else if (file !== undefined) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch (e) {
      throw new UsageError(`--secret-file: cannot read ${JSON.stringify(file)} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (!stat.isFile()) throw new UsageError(`--secret-file: ${JSON.stringify(file)} is not a file`);
    if (stat.size > MAX_SECRET_BYTES) throw new UsageError(`--secret-file: ${JSON.stringify(file)} is longer than ${MAX_SECRET_BYTES} bytes`);
    try {
      secret = chomp(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      throw new UsageError(`--secret-file: cannot read ${JSON.stringify(file)} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  } else {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(env!)) throw new UsageError(`--secret-env takes the NAME of an environment variable (got something else)`);
    const value = process.env[env!];
    if (value === undefined) throw new UsageError(`--secret-env: the environment variable ${env} is not set`);
    secret = value;
  }
  if (secret === '') throw new UsageError(`the secret read from ${given[0]} is empty`);
  return secret;
}

export const createConnectionCommand: CommandSpec = {
  summary:
    'Create a connection for workflow HTTP tasks. Its secret (the API key value, the password or the client secret) is read from standard input, a file or a named environment variable, never from a flag (ps and shell history show those); it is stored encrypted and never shown again.',
  usage: [
    `--name N --auth API_KEY --api-key-name HEADER ${SECRET_USAGE} [--description D]`,
    `--name N --auth BASIC --username U ${SECRET_USAGE} [--description D]`,
    `--name N --auth OAUTH_CLIENT_CREDENTIALS --authorization-endpoint URL --client-id ID ${SECRET_USAGE} [--http-method POST|GET|PUT] [--scope S] [--description D]`,
  ],
  flags: {
    name: str,
    auth: str,
    description: str,
    'api-key-name': str,
    'api-key-value': str,
    username: str,
    password: str,
    'authorization-endpoint': str,
    'http-method': str,
    'client-id': str,
    'client-secret': str,
    scope: str,
    'secret-stdin': bool,
    'secret-file': str,
    'secret-env': str,
  },
  async prepare(v) {
    // The old secret flags stay known, so their use gets this error rather than "unknown flag" (and the value
    // is not echoed).
    for (const flag of Object.values(SECRET_FLAG)) {
      if (v[flag] !== undefined) throw new UsageError(`--${flag} would put the secret on the command line, where ps and shell history show it: give it with ${SECRET_SOURCES}`);
    }
    const authorizationType = oneOf(v, 'auth', CONNECTION_AUTH_TYPES);
    const needs: Record<string, string[]> = {
      API_KEY: ['api-key-name'],
      BASIC: ['username'],
      OAUTH_CLIENT_CREDENTIALS: ['authorization-endpoint', 'client-id'],
    };
    for (const f of needs[authorizationType]) required(v, f);
    for (const [type, flags] of Object.entries(needs)) {
      if (type === authorizationType) continue;
      for (const f of flags) if (v[f] !== undefined) throw new UsageError(`--${f} does not apply to --auth ${authorizationType}`);
    }
    const name = required(v, 'name');
    const secret = await readSecret(v);
    const input = {
      name,
      description: optional(v, 'description'),
      authorizationType,
      apiKeyName: optional(v, 'api-key-name'),
      apiKeyValue: authorizationType === 'API_KEY' ? secret : undefined,
      username: optional(v, 'username'),
      password: authorizationType === 'BASIC' ? secret : undefined,
      authorizationEndpoint: optional(v, 'authorization-endpoint'),
      httpMethod: optional(v, 'http-method'),
      clientId: optional(v, 'client-id'),
      clientSecret: authorizationType === 'OAUTH_CLIENT_CREDENTIALS' ? secret : undefined,
      scope: optional(v, 'scope'),
    };
    return async ({ ds, services, config }) => writeTransaction(ds.manager, (m) => services.workflowConnections.createIn(m, config, input, null));
  },
};

export const listConnectionsCommand: CommandSpec = {
  summary: 'List the connections of workflow HTTP tasks (without their secrets).',
  usage: [''],
  flags: {},
  prepare() {
    return async ({ ds, services }) => ({ connections: await services.workflowConnections.listIn(ds.manager) });
  },
};

export const deleteConnectionCommand: CommandSpec = {
  summary: 'Delete a connection of workflow HTTP tasks (by name or ARN); tasks naming it fail from then on.',
  usage: ['--connection NAME|ARN'],
  flags: { connection: str },
  prepare(v) {
    const which = required(v, 'connection');
    return async ({ ds, services }) => writeTransaction(ds.manager, (m) => services.workflowConnections.deleteIn(m, which));
  },
};
