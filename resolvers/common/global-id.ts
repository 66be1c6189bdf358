import { parseInteger, POSITIVE_INT4 } from '../../src/services/common/decode';
import type { NodeIdKind } from './node';

/**
 * Opaque global ids for `node(id:)`: base64url of "<TypeName>:<databaseId>". Clients must treat them as
 * opaque; the server rejects malformed ones with a clear error.
 */
export function toGlobalId(typeName: string, id: number | string): string {
  if (typeof id !== 'number') return encode(typeName, id);
  // Lists present the same rows again and again (a dashboard: 100 alerts, their repositories and users per
  // request): the ids of numeric database ids are kept per type, a bounded number of them.
  let byId = known.get(typeName);
  if (!byId) known.set(typeName, (byId = new Map()));
  let g = byId.get(id);
  if (g === undefined) {
    g = encode(typeName, id);
    if (byId.size >= MAX_KNOWN_PER_TYPE) byId.clear();
    byId.set(id, g);
  }
  return g;
}

const MAX_KNOWN_PER_TYPE = 50_000;
const known = new Map<string, Map<number, string>>();

function encode(typeName: string, id: number | string): string {
  return Buffer.from(`${typeName}:${id}`, 'utf8').toString('base64url');
}

export function fromGlobalId(globalId: string): { typeName: string; id: string } | null {
  if (typeof globalId !== 'string' || globalId.length === 0 || globalId.length > 200 || !/^[A-Za-z0-9_-]+$/.test(globalId)) {
    return null;
  }
  const decoded = Buffer.from(globalId, 'base64url').toString('utf8');
  const m = /^([A-Z][A-Za-z0-9]*):([A-Za-z0-9_-]+)$/.exec(decoded);
  if (!m) return null;
  return { typeName: m[1], id: m[2] };
}

/**
 * The database id of a global id, decoded against the kind its type declares (`int4`: a positive int4
 * integer written as toGlobalId writes it); undefined when it cannot name a row.
 */
export function decodeNodeId(kind: NodeIdKind, id: string): number | undefined {
  switch (kind) {
    case 'int4':
      return parseInteger(id, POSITIVE_INT4, { canonical: true });
  }
}
