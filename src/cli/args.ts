/** Pure argument checks of the admin CLI: flags parsed and checked before the database is touched. */
import { parseArgs } from 'node:util';
import { isAppError } from '../errors/app-error';
import { CLASSIC_SCOPES, FINE_GRAINED_PERMISSIONS, parseFullName } from '../services/identity/identity.service';
import { CommandSpec, FlagSpec, UsageError, Values } from './spec';

/** Access levels of a fine-grained permission (the service accepts exactly these). */
const FINE_GRAINED_ACCESS = ['read', 'write'] as const;
const MAX_EXPIRES_IN_DAYS = 36_500;

/** true when a switch is given; undefined (the service's default) when not. */
export function flagOn(v: Values, flag: string): true | undefined {
  return v[flag] === true ? true : undefined;
}

export function nonEmpty(flag: string, value: string): string {
  if (value.trim() === '') throw new UsageError(`flag --${flag} needs a non-empty value`);
  return value;
}

export function optional(v: Values, flag: string): string | undefined {
  const value = v[flag];
  if (value === undefined) return undefined;
  return nonEmpty(flag, value as string);
}

export function required(v: Values, flag: string): string {
  const value = optional(v, flag);
  if (value === undefined) throw new UsageError(`missing required flag --${flag}`);
  return value;
}

export function oneOfOptional<T extends string>(v: Values, flag: string, allowed: readonly T[]): T | undefined {
  const value = optional(v, flag);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

export function oneOf<T extends string>(v: Values, flag: string, allowed: readonly T[]): T {
  const value = oneOfOptional(v, flag, allowed);
  if (value === undefined) throw new UsageError(`missing required flag --${flag}`);
  return value;
}

/** owner/name, checked with the service's own parser. */
export function repoArg(value: string): string {
  try {
    parseFullName(value);
  } catch (e) {
    if (isAppError(e)) throw new UsageError(`--repo ${e.message}`);
    throw e;
  }
  return value;
}

export function splitList(flag: string, raw: string): string[] {
  const items = raw.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw new UsageError(`--${flag} is a comma-separated list without empty items (got "${raw}")`);
  return items;
}

export function parseScopes(raw: string): string[] {
  const scopes = splitList('scopes', raw);
  const unknown = scopes.filter((s) => !(CLASSIC_SCOPES as readonly string[]).includes(s));
  if (unknown.length) {
    throw new UsageError(`unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.map((s) => `"${s}"`).join(', ')} in --scopes; known: ${CLASSIC_SCOPES.join(', ')}`);
  }
  return scopes;
}

export function parsePermissions(raw: string): Record<string, string> {
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

export function expiryFromDays(raw: string): Date {
  const s = raw.trim();
  const days = /^\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(days) || days < 1 || days > MAX_EXPIRES_IN_DAYS) {
    throw new UsageError(`--expires-in-days must be a whole number of days from 1 to ${MAX_EXPIRES_IN_DAYS} (got "${raw}")`);
  }
  return new Date(Date.now() + days * 86_400_000);
}

/** node:util parseArgs (strict) with the errors rewritten as one-line usage errors. */
export function parseFlags(command: string, spec: CommandSpec, args: string[]): { values: Values; help: boolean } {
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

export function describeParseError(command: string, e: unknown): string {
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

export function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}
