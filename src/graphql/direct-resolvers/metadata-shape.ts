/**
 * Direct resolver calls (./index.ts) read type-graphql's private metadata storage: they are right only for the
 * shape of type-graphql 2.0.0-rc.4 (pinned exactly in package.json). This check runs when the schema is built and
 * stops the server with a clear error when the installed type-graphql or its metadata differs from what the
 * direct calls were written against, instead of letting them call resolvers with wrong arguments.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getMetadataStorage } from 'type-graphql';

/** The type-graphql version the direct calls were written against. */
export const TYPE_GRAPHQL_VERSION = '2.0.0-rc.4';

/** Parameter kinds type-graphql 2.0.0-rc.4 records (./index.ts handles root, context, info, arg, args). */
const PARAM_KINDS = new Set(['root', 'context', 'info', 'arg', 'args', 'pubSub', 'custom']);

export class TypeGraphqlMetadataError extends Error {
  constructor(problem: string) {
    super(`direct resolver calls (src/graphql/direct-resolvers): ${problem}; they were written for type-graphql ${TYPE_GRAPHQL_VERSION} (pinned in package.json)`);
    this.name = 'TypeGraphqlMetadataError';
  }
}

function installedVersion(): string {
  const main = require.resolve('type-graphql');
  for (let dir = path.dirname(main); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!fs.existsSync(file)) continue;
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'type-graphql') return String(pkg.version);
  }
  return 'unknown';
}

type Storage = Record<string, unknown>;

/** Throws TypeGraphqlMetadataError when the installed type-graphql or its metadata storage is not the expected shape. */
export function assertTypeGraphqlMetadataShape(storage: Storage = getMetadataStorage() as unknown as Storage, version = installedVersion()): void {
  if (version !== TYPE_GRAPHQL_VERSION) throw new TypeGraphqlMetadataError(`type-graphql ${version} is installed`);
  for (const list of ['queries', 'mutations', 'fieldResolvers', 'objectTypes', 'argumentTypes', 'inputTypes', 'enums', 'params']) {
    if (!Array.isArray(storage[list])) throw new TypeGraphqlMetadataError(`the metadata storage has no "${list}" list`);
  }
  const handlers = [...(storage.queries as Storage[]), ...(storage.fieldResolvers as Storage[])];
  for (const h of handlers) {
    if (typeof h.target !== 'function' || typeof h.methodName !== 'string' || typeof h.schemaName !== 'string') {
      throw new TypeGraphqlMetadataError('a resolver handler has no target class, methodName or schemaName');
    }
    if (h.params !== undefined && !Array.isArray(h.params)) throw new TypeGraphqlMetadataError(`${h.methodName}: "params" is not a list`);
    for (const p of (h.params as Storage[] | undefined) ?? []) {
      if (typeof p.kind !== 'string' || !PARAM_KINDS.has(p.kind) || typeof p.index !== 'number') {
        throw new TypeGraphqlMetadataError(`${h.methodName}: a parameter of unknown kind "${String(p.kind)}" or without an index`);
      }
      if ((p.kind === 'arg' || p.kind === 'args') && typeof p.getType !== 'function') {
        throw new TypeGraphqlMetadataError(`${h.methodName}: an argument parameter without getType()`);
      }
    }
  }
  for (const f of storage.fieldResolvers as Storage[]) {
    if (f.kind !== 'external' && f.kind !== 'internal') throw new TypeGraphqlMetadataError(`${f.methodName}: a field resolver of unknown kind "${String(f.kind)}"`);
  }
  for (const list of ['argumentTypes', 'inputTypes'] as const) {
    for (const t of storage[list] as Storage[]) {
      if (!Array.isArray(t.fields)) throw new TypeGraphqlMetadataError(`an entry of "${list}" has no fields list`);
    }
  }
  for (const e of storage.enums as Storage[]) {
    if (!('enumObj' in e)) throw new TypeGraphqlMetadataError('an enum entry has no enumObj');
  }
}
