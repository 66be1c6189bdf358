/**
 * The Relay Node interface and the registry behind `node(id:)` / `nodes(ids:)`. Each domain registers
 * its node types: how to recognise its values (for resolveType) and how to load one by database id
 * with the same visibility rules as its other fields (a hidden node is null, never data).
 */
import { Field, ID, InterfaceType } from 'type-graphql';
import type { RequestContext } from '../../src/context';
import { AppError } from '../../src/errors/app-error';

/**
 * What the database id inside a global id is. `int4`: a positive integer of an int4 primary key (decoded
 * by the shared decoder, src/services/common/decode.ts, before `load` sees it).
 */
export type NodeIdKind = 'int4';

export interface NodeTypeRegistration {
  typeName: string;
  idKind: NodeIdKind;
  /** true when `value` (an entity) is of this GraphQL type. */
  isTypeOf(value: unknown): boolean;
  /** Load by the decoded database id, applying visibility; null when missing or hidden. */
  load(ctx: RequestContext, id: number): Promise<unknown | null>;
}

const registry = new Map<string, NodeTypeRegistration>();

export function registerNodeType(reg: NodeTypeRegistration): void {
  registry.set(reg.typeName, reg);
}

/** null for "missing or not visible" answers of node(id:) (the services' 4xx errors), never data. */
export async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof AppError) return null;
    throw e;
  }
}

export function nodeRegistration(typeName: string): NodeTypeRegistration | undefined {
  return registry.get(typeName);
}

export function resolveNodeTypeName(value: unknown): string | undefined {
  for (const reg of registry.values()) if (reg.isTypeOf(value)) return reg.typeName;
  return undefined;
}

@InterfaceType('Node', {
  description: 'An object with a globally unique, opaque ID.',
  resolveType: (value) => resolveNodeTypeName(value),
})
export abstract class Node {
  @Field(() => ID, { description: 'Opaque global id; pass it to `node(id:)` to fetch this object again.' })
  id: string;
}
