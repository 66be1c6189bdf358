/** The admin CLI's run: arguments -> command -> database -> one JSON document, and the exit status. */
import type { DataSource } from 'typeorm';
import { AppConfig, ConfigError, loadConfig } from '../config';
import { toAppError } from '../errors/app-error';
import { oneLine, parseFlags } from './args';
import { COMMANDS } from './commands';
import { CliFailure, Runner, UsageError } from './spec';
import { usage } from './usage';

const HELP_HINT = 'run "npm run admin -- help" for usage';

/** A short, single-line description of an unexpected error (no stack). */
export function describeError(e: unknown): string {
  if (e instanceof Error) {
    if (e.message) return oneLine(e.message);
    const inner = (e as { errors?: unknown[] }).errors; // AggregateError (e.g. ECONNREFUSED on ::1 and 127.0.0.1)
    if (Array.isArray(inner) && inner[0] instanceof Error && inner[0].message) return oneLine(inner[0].message);
    const code = (e as { code?: string }).code;
    return code ?? e.name;
  }
  return oneLine(String(e));
}

export interface Outcome {
  code: number;
  stdout?: string;
  stderr?: string;
}

export async function run(argv: string[]): Promise<Outcome> {
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
    runner = await spec.prepare(values);
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

  // The gateway's modules (every domain's services, entities and migrations) are loaded only now: a mistyped
  // command fails without loading them. (A CommonJS require: TypeScript keeps import() as an ES import here.)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { openDatabase } = require('../../ormconfig') as typeof import('../../ormconfig');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createServices } = require('../services') as typeof import('../services');
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

export function finish(outcome: Outcome): void {
  if (outcome.stderr) process.stderr.write(outcome.stderr + '\n');
  const exit = () => process.exit(outcome.code);
  // Exit once stdout is flushed, so an open handle can never keep the CLI alive.
  if (outcome.stdout !== undefined) process.stdout.write(outcome.stdout.endsWith('\n') ? outcome.stdout : outcome.stdout + '\n', exit);
  else exit();
}
