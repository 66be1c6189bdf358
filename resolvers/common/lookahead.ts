/**
 * Lookahead: which fields a list resolver's selection asks for, so its service can join the to-one
 * relations they need into the page statement (and skip a COUNT nobody reads). Fragments and inline
 * fragments are followed; `@skip`/`@include` are ignored (a field they may drop still counts as asked,
 * which only costs a join). Aliases do not matter: the field name does.
 */
import { FieldNode, GraphQLResolveInfo, Kind, SelectionSetNode } from 'graphql';

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
}

/** What the current (connection) field's selection asks for. */
export function connectionSelection(info: GraphQLResolveInfo): ConnectionSelection {
  const top = childFields(info, info.fieldNodes);
  const nodeFields = new Set<string>();
  for (const name of childFields(info, top.get('nodes') ?? []).keys()) nodeFields.add(name);
  const edgeNodes = childFields(info, top.get('edges') ?? []).get('node') ?? [];
  for (const name of childFields(info, edgeNodes).keys()) nodeFields.add(name);
  return { connection: new Set(top.keys()), node: nodeFields };
}

/**
 * The entity properties that the selected item fields read, from a declaration of what each field reads
 * (`reads`, kept next to the type's resolvers); undefined (read everything) as soon as one selected field is
 * not declared. Lists use it to decide whether a few columns suffice: a field added to the type later and not
 * declared costs the full row, never a missing value.
 */
export function propertiesRead<P extends string>(fields: ReadonlySet<string>, reads: Readonly<Record<string, readonly P[]>>): P[] | undefined {
  const out = new Set<P>();
  for (const f of fields) {
    if (!Object.prototype.hasOwnProperty.call(reads, f)) return undefined;
    for (const p of reads[f]) out.add(p);
  }
  return [...out];
}
