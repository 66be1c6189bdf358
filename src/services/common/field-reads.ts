/**
 * What a caller shows of a list's items, by the graph's field names, and what those fields read of the rows: the
 * services decide from it which columns a page reads (lists declare, next to their narrow column sets, what each
 * field reads). No GraphQL here: the resolvers hand the selected names over (resolvers/common/lookahead.ts).
 */

/** The fields selected on each item, and for a field with a selection of its own, the names selected under it. */
export interface ItemSelection {
  fields: ReadonlySet<string>;
  subfields: ReadonlyMap<string, ReadonlySet<string>>;
}

/** What each field of a type reads of its entity (entity property names). */
export type FieldReads<P extends string> = Readonly<Record<string, readonly P[]>>;

/**
 * The entity properties that the selected fields read, from a declaration of what each field reads; undefined
 * (read everything) as soon as one selected field is not declared. A field added to the type later and not declared
 * costs the full row, never a missing value.
 */
export function propertiesRead<P extends string>(fields: Iterable<string>, reads: FieldReads<P>): P[] | undefined {
  const out = new Set<P>();
  for (const f of fields) {
    if (!Object.prototype.hasOwnProperty.call(reads, f)) return undefined;
    for (const p of reads[f]) out.add(p);
  }
  return [...out];
}

/** Whether every property of `reads` is in `narrow` (a list's narrow column set); false for undefined (everything). */
export function within<P extends string>(reads: readonly P[] | undefined, narrow: readonly P[]): reads is P[] {
  return reads !== undefined && reads.every((p) => narrow.includes(p));
}
