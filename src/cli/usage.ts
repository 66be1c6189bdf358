/** The admin CLI's help text. */
import { CLASSIC_SCOPES, FINE_GRAINED_PERMISSIONS } from '../services/identity/identity.service';
import { COMMANDS } from './commands';

function commandUsage(name: string): string[] {
  return COMMANDS[name].usage.map((u) => `  ${name}${u ? ` ${u}` : ''}`);
}

export function usage(only?: string): string {
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
