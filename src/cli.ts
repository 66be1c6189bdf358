/**
 * The admin CLI: `npm run admin -- <command> [flags]` (or `node dist/src/cli.js <command> [flags]`).
 *
 * Layout: src/cli/commands/<command>.ts (one file per command: flags, pure checks, the service call, the
 * document), src/cli/args.ts (argument checks), src/cli/present.ts (JSON documents), src/cli/usage.ts,
 * src/cli/run.ts (run and exit).
 *
 * Thin on purpose: parse and check the arguments, open the database named by DATABASE_URL (which runs
 * pending migrations), call IdentityService, print ONE JSON document (camelCase) on stdout, close, exit.
 * The rules live in the service; the command files only add pure argument checks so that a mistyped command
 * fails before the database is touched.
 *
 * Exit codes: 0 done; 1 not found / conflict / database not empty / database unreachable / unexpected
 * failure; 2 bad arguments, invalid input or bad configuration. Errors are one line on stderr starting
 * with "error: " and never contain a token or secret (those are only ever printed once, on stdout).
 */
import './db/utc';
import 'reflect-metadata';
import { describeError, finish, run } from './cli/run';

run(process.argv.slice(2)).then(finish, (e: unknown) => finish({ code: 1, stderr: `error: ${describeError(e)}` }));
