/**
 * GraphQL enums derived from the domain's value lists (entities), so the API cannot drift from what the
 * services accept: each value `foo_bar` becomes the GraphQL name FOO_BAR with the internal value 'foo_bar'.
 */
export type EnumFrom<V extends string> = { readonly [K in V as Uppercase<K>]: K };

export function enumFrom<const V extends string>(values: readonly V[]): EnumFrom<V> {
  return Object.freeze(Object.fromEntries(values.map((v) => [v.toUpperCase(), v]))) as EnumFrom<V>;
}
