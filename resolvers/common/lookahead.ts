/**
 * Lookahead: which fields a list resolver's selection asks for, so its service can join the to-one
 * relations they need into the page statement, read only the columns they show (the services' field-reads
 * declarations) and skip a COUNT nobody reads. Fragments and inline
 * fragments are followed; `@skip`/`@include` are ignored (a field they may drop still counts as asked,
 * which only costs a join). Aliases do not matter: the field name does.
 */
import { FieldNode, GraphQLResolveInfo, Kind, SelectionSetNode } from 'graphql';
import type { ItemSelection } from '../../src/services/common/field-reads';

function collect(info: GraphQLResolveInfo, set: SelectionSetNode | undefined, into: Map<string, FieldNode[]>, seen: Set<string>): void {
  if (!set) return;
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      const list = into.get(s.name.value);
      if (list) list.push(s);
      else into.set(s.name.value, [s]);
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      collect(info, s.selectionSet, into, seen);
    } else if (s.kind === Kind.FRAGMENT_SPREAD && !seen.has(s.name.value)) {
      seen.add(s.name.value);
      collect(info, info.fragments[s.name.value]?.selectionSet, into, seen);
      seen.delete(s.name.value);
    }
  }
}

/** The fields selected directly under these nodes, by field name. */
function childFields(info: GraphQLResolveInfo, nodes: readonly FieldNode[]): Map<string, FieldNode[]> {
  const out = new Map<string, FieldNode[]>();
  for (const n of nodes) collect(info, n.selectionSet, out, new Set());
  return out;
}

export interface ConnectionSelection {
  /** Field names asked for on the connection itself (totalCount, pageInfo, nodes, edges...). */
  connection: ReadonlySet<string>;
  /** Field names asked for on the items, through `nodes { ... }` and `edges { node { ... } }`. */
  node: ReadonlySet<string>;
  /** For each item field with a selection of its own (a related object), the field names asked for under it. */
  nodeSubfields: ReadonlyMap<string, ReadonlySet<string>>;
}

/** What the current (connection) field's selection asks for. */
export function connectionSelection(info: GraphQLResolveInfo): ConnectionSelection {
  const top = childFields(info, info.fieldNodes);
  const edgeNodes = childFields(info, top.get('edges') ?? []).get('node') ?? [];
  const items = childFields(info, [...(top.get('nodes') ?? []), ...edgeNodes]);
  const nodeSubfields = new Map<string, ReadonlySet<string>>();
  for (const [name, nodes] of items) {
    if (nodes.some((n) => n.selectionSet)) nodeSubfields.set(name, new Set(childFields(info, nodes).keys()));
  }
  return { connection: new Set(top.keys()), node: new Set(items.keys()), nodeSubfields };
}

/** The selection of the items as the services take it (src/services/common/field-reads.ts). */
export function itemSelection(info: GraphQLResolveInfo): { totalCount: boolean; selection: ItemSelection } {
  const s = connectionSelection(info);
  return { totalCount: s.connection.has('totalCount'), selection: { fields: s.node, subfields: s.nodeSubfields } };
}
