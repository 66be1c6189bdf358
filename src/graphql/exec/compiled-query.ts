/**
 * A compiled executor for validated query documents (Apollo's executor: ./gateway.ts).
 *
 * graphql-js' `execute` re-derives, for every object of a list, what never changes within a document: the
 * fields to collect, each field's definition, its argument values, a fresh GraphQLResolveInfo, the kind of
 * its return type. Here a document is compiled once into a plan for our schema, per field node: the field
 * definition, its resolver (or the default property read), its argument values (computed at compile time
 * when they use no variables, else once per request), how its value completes (scalar/enum `serialize`,
 * object, list, non-null, abstract via `resolveType`/`isTypeOf`) and the sub-plan. Fields are collected with
 * graphql-js' own `collectFields`/`collectSubfields` (fragments, inline fragments, merged response keys,
 * `@skip`/`@include`), so the shape of the answer is graphql-js' by construction; a plan is kept per set of
 * `@skip`/`@include` variable values.
 *
 * The result is only used when nothing went wrong: any thrown or rejected value, an Error as a value, a null
 * in a non-null position, a value that does not serialize, an abstract value of no valid type... makes `run`
 * answer FALLBACK, and the caller executes the document with graphql-js from scratch (so errors, their
 * paths and null bubbling always come from graphql-js). Introspection fields (`__schema`, `__type`) are not
 * compiled at all (no plan). `info.path` is approximate: the response keys from the root, without list
 * indexes (nothing in this graph reads it; errors never come from here).
 *
 * Synchronous values stay synchronous: a promise is awaited only where a resolver (or resolveType/isTypeOf)
 * returns one, and the answer object keeps graphql-js' key order, so `JSON.stringify({ data })` is the same.
 */
import {
  defaultTypeResolver,
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLAbstractType,
  GraphQLBoolean,
  GraphQLField,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  GraphQLFieldResolver,
  GraphQLLeafType,
  GraphQLObjectType,
  GraphQLOutputType,
  GraphQLResolveInfo,
  GraphQLSchema,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  OperationDefinitionNode,
  ValueNode,
  visit,
} from 'graphql';
import { collectFields, collectSubfields } from 'graphql/execution/collectFields';
import { getArgumentValues, getVariableValues } from 'graphql/execution/values';
import type { Path } from 'graphql/jsutils/Path';

/** What `run` answers when graphql-js must execute the request instead. */
export const FALLBACK: unique symbol = Symbol('compiled-query-fallback');

/** Thrown inside a run to abandon it (never leaves this module). */
class Bail extends Error {}
const BAIL = new Bail('compiled execution abandoned');

type Completer = (value: unknown, req: Run, info: GraphQLResolveInfo) => unknown;

interface FieldPlan {
  /** Index of this field's per-request slots (info, dynamic arguments). */
  id: number;
  key: string;
  typename: boolean;
  name: string;
  def: GraphQLField<unknown, unknown>;
  resolve: GraphQLFieldResolver<unknown, unknown> | undefined;
  nodes: readonly FieldNode[];
  parentType: GraphQLObjectType;
  path: Path;
  /** Argument values when they use no variable (frozen: shared by every request), else undefined. */
  args: Record<string, unknown> | undefined;
  complete: Completer;
}

interface ObjectPlan {
  type: GraphQLObjectType;
  fields: FieldPlan[];
}

/** One compiled shape of the operation (for one set of `@skip`/`@include` variable values). */
interface Plan {
  root: ObjectPlan;
  fieldCount: number;
}

/** Per-request state. */
interface Run {
  ctx: unknown;
  vars: Record<string, unknown>;
  infos: (GraphQLResolveInfo | undefined)[];
  args: (Record<string, unknown> | undefined)[];
  compiled: CompiledQuery;
}

/** The most plans kept per document (one per combination of `@skip`/`@include` variable values met). */
const MAX_PLANS = 8;

function isPromiseLike(v: unknown): v is PromiseLike<unknown> {
  return typeof (v as { then?: unknown } | null | undefined)?.then === 'function';
}

function usesVariables(node: FieldNode): boolean {
  let found = false;
  for (const a of node.arguments ?? []) {
    visit(a.value, {
      Variable() {
        found = true;
      },
    });
  }
  return found;
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

/** The variables whose values decide a `@skip(if:)`/`@include(if:)` anywhere in the document. */
function conditionVariables(document: DocumentNode): string[] | null {
  const names = new Set<string>();
  let unsupported = false;
  visit(document, {
    Directive(d) {
      if (d.name.value !== 'skip' && d.name.value !== 'include') {
        unsupported = true;
        return;
      }
      for (const a of d.arguments ?? []) {
        const v: ValueNode = a.value;
        if (v.kind === Kind.VARIABLE) names.add(v.name.value);
      }
    },
  });
  return unsupported ? null : [...names];
}

export class CompiledQuery {
  private readonly plans = new Map<string, Plan>();
  private readonly fragments: Record<string, FragmentDefinitionNode>;
  private readonly conditionVars: string[];
  private readonly queryType: GraphQLObjectType;

  private constructor(
    readonly schema: GraphQLSchema,
    readonly document: DocumentNode,
    readonly operation: OperationDefinitionNode,
    conditionVars: string[],
    queryType: GraphQLObjectType,
  ) {
    this.conditionVars = conditionVars;
    this.queryType = queryType;
    const fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
    this.fragments = fragments;
  }

  /**
   * A compiled query for this (validated) document's query operation, or null when it uses something this
   * executor does not do (introspection, a directive other than skip/include, a non-query operation).
   */
  static compile(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): CompiledQuery | null {
    const queryType = schema.getQueryType();
    if (operation.operation !== 'query' || !queryType) return null;
    let introspection = false;
    visit(document, {
      Field(f) {
        if (f.name.value === '__schema' || f.name.value === '__type') introspection = true;
      },
    });
    if (introspection) return null;
    const conditionVars = conditionVariables(document);
    if (!conditionVars) return null;
    const compiled = new CompiledQuery(schema, document, operation, conditionVars, queryType);
    // Compile the plan without variables now when the shape cannot depend on them (the common case).
    if (conditionVars.length === 0) {
      try {
        compiled.planFor('', {});
      } catch {
        return null;
      }
    }
    return compiled;
  }

  /**
   * `{ data }` as graphql-js would answer it without errors, a promise of it, or FALLBACK (graphql-js must
   * execute the request: variables that do not coerce, an error anywhere, anything unexpected).
   */
  run(contextValue: unknown, rawVariables: Record<string, unknown>): { data: Record<string, unknown> } | Promise<{ data: Record<string, unknown> } | typeof FALLBACK> | typeof FALLBACK {
    try {
      let vars: Record<string, unknown> = rawVariables;
      const defs = this.operation.variableDefinitions;
      if (defs && defs.length > 0) {
        const coerced = getVariableValues(this.schema, defs, rawVariables, { maxErrors: 1 });
        if (coerced.errors) return FALLBACK;
        vars = coerced.coerced;
      } else {
        vars = {};
      }
      let key = '';
      for (const name of this.conditionVars) {
        const v = vars[name];
        if (v === true) key += '1';
        else if (v === false) key += '0';
        else return FALLBACK;
      }
      const plan = this.planFor(key, vars);
      if (!plan) return FALLBACK;
      const run: Run = {
        ctx: contextValue,
        vars,
        infos: new Array(plan.fieldCount),
        args: new Array(plan.fieldCount),
        compiled: this,
      };
      const data = executeObject(plan.root, undefined, run);
      if (isPromiseLike(data)) {
        return Promise.resolve(data).then(
          (d) => ({ data: d as Record<string, unknown> }),
          () => FALLBACK,
        );
      }
      return { data };
    } catch {
      return FALLBACK;
    }
  }

  private planFor(key: string, vars: Record<string, unknown>): Plan | null {
    const hit = this.plans.get(key);
    if (hit) return hit;
    if (this.plans.size >= MAX_PLANS) return null;
    const builder = new PlanBuilder(this.schema, this.fragments, vars);
    const fields = collectFields(this.schema, this.fragments, vars, this.queryType, this.operation.selectionSet);
    const root = builder.objectPlan(this.queryType, fields, undefined);
    const plan: Plan = { root, get fieldCount() { return builder.count; } };
    this.plans.set(key, plan);
    return plan;
  }

  /** @internal the fragments by name (shared by every info). */
  get fragmentMap(): Record<string, FragmentDefinitionNode> {
    return this.fragments;
  }
}

/** Compiles object plans for one set of `@skip`/`@include` values; abstract types compile per runtime type on first use. */
class PlanBuilder {
  count = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Record<string, FragmentDefinitionNode>,
    private readonly vars: Record<string, unknown>,
  ) {}

  objectPlan(type: GraphQLObjectType, fields: Map<string, readonly FieldNode[]>, parentPath: Path | undefined): ObjectPlan {
    const plans: FieldPlan[] = [];
    for (const [key, nodes] of fields) {
      const name = nodes[0].name.value;
      if (key === '__proto__') throw BAIL;
      const path: Path = { prev: parentPath, key, typename: type.name };
      if (name === '__typename') {
        plans.push({
          id: this.count++,
          key,
          typename: true,
          name,
          def: undefined as never,
          resolve: undefined,
          nodes,
          parentType: type,
          path,
          args: undefined,
          complete: undefined as never,
        });
        continue;
      }
      const def = type.getFields()[name];
      // Not a field of this type: graphql-js leaves the key out (validation rules this out for our documents).
      if (!def) continue;
      const dynamic = usesVariables(nodes[0]);
      plans.push({
        id: this.count++,
        key,
        typename: false,
        name,
        def,
        resolve: def.resolve,
        nodes,
        parentType: type,
        path,
        args: dynamic ? undefined : deepFreeze(getArgumentValues(def, nodes[0], {})),
        complete: this.completer(def.type, nodes, path),
      });
    }
    return { type, fields: plans };
  }

  completer(type: GraphQLOutputType, nodes: readonly FieldNode[], path: Path): Completer {
    if (isNonNullType(type)) {
      const inner = this.completer(type.ofType, nodes, path);
      return (value, run, info) => {
        if (value == null) throw BAIL;
        return inner(value, run, info);
      };
    }
    if (isLeafType(type)) return leafCompleter(type);
    if (isListType(type)) {
      const item = this.completer(type.ofType, nodes, path);
      return (value, run, info) => {
        if (value == null) return null;
        if (value instanceof Error) throw BAIL;
        let items: unknown[];
        if (Array.isArray(value)) items = value;
        else if (typeof value === 'object' && typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function') items = Array.from(value as Iterable<unknown>);
        else throw BAIL;
        const out = new Array<unknown>(items.length);
        let pending = false;
        let i = 0;
        try {
          for (; i < items.length; i++) {
            const c = item(items[i], run, info);
            if (isPromiseLike(c)) pending = true;
            out[i] = c;
          }
        } catch (e) {
          if (pending) return allOrBail([...out.slice(0, i), Promise.reject(e)]);
          throw e;
        }
        return pending ? allOrBail(out) : out;
      };
    }
    if (isObjectType(type)) {
      const plan = this.objectPlan(type, collectSubfields(this.schema, this.fragments, this.vars, type, nodes), path);
      return objectCompleter(plan);
    }
    if (isAbstractType(type)) {
      /** The completer of each type name resolved so far: a name is checked against the schema once (it never changes). */
      const byName = new Map<string, Completer>();
      const schema = this.schema;
      const resolveType = (type as GraphQLAbstractType).resolveType ?? defaultTypeResolver;
      const withName = (name: unknown, value: unknown, run: Run, info: GraphQLResolveInfo): unknown => {
        if (typeof name !== 'string') throw BAIL;
        let c = byName.get(name);
        if (!c) {
          const runtimeType = schema.getType(name);
          if (!runtimeType || !isObjectType(runtimeType) || !schema.isSubType(type, runtimeType)) throw BAIL;
          c = objectCompleter(this.objectPlan(runtimeType, collectSubfields(schema, this.fragments, this.vars, runtimeType, nodes), path));
          byName.set(name, c);
        }
        return c(value, run, info);
      };
      return (value, run, info) => {
        if (value == null) return null;
        if (value instanceof Error) throw BAIL;
        const name = resolveType(value, run.ctx, info, type);
        if (isPromiseLike(name)) return Promise.resolve(name).then((n) => withName(n, value, run, info));
        return withName(name, value, run, info);
      };
    }
    throw BAIL;
  }
}

const MAX_INT = 2147483647;
const MIN_INT = -2147483648;
const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** `toISOString()` of a valid Date with a four-digit year (what DateTimeISO writes), without the native call's cost. */
export function isoString(d: Date): string {
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${pad3(d.getUTCMilliseconds())}Z`;
}

/** Whether `type` is graphql-scalars' DateTimeISO as type-graphql uses it for Date fields (Date -> toISOString). */
function isDateTimeIso(type: GraphQLLeafType): boolean {
  if (type.name !== 'DateTimeISO') return false;
  try {
    return ['1970-01-01T00:00:00.000Z', '2024-02-29T23:59:59.123Z'].every((iso) => type.serialize(new Date(iso)) === iso);
  } catch {
    return false;
  }
}

/**
 * A leaf's value through its type's `serialize`, with the answers of the common cases written out: they are
 * exactly what graphql-js' serializers return for them (a string for String and ID, an int32 for Int, a boolean
 * for Boolean, an integer for ID as its decimal string, a valid four-digit-year Date for DateTimeISO as its ISO
 * string); anything else goes through `serialize` itself.
 */
function leafCompleter(type: GraphQLLeafType): Completer {
  const generic = (value: unknown): unknown => {
    const s = type.serialize(value);
    if (s == null) throw BAIL;
    return s;
  };
  const guard = (fast: (value: unknown) => unknown): Completer => (value) => {
    if (value == null) return null;
    if (value instanceof Error) throw BAIL;
    return fast(value);
  };
  if (type === GraphQLString) return guard((v) => (typeof v === 'string' ? v : generic(v)));
  if (type === GraphQLInt) return guard((v) => (typeof v === 'number' && Number.isInteger(v) && v <= MAX_INT && v >= MIN_INT ? v : generic(v)));
  if (type === GraphQLBoolean) return guard((v) => (typeof v === 'boolean' ? v : generic(v)));
  if (type === GraphQLID) return guard((v) => (typeof v === 'string' ? v : typeof v === 'number' && Number.isInteger(v) ? String(v) : generic(v)));
  if (isDateTimeIso(type)) {
    return guard((v) => {
      if (v instanceof Date) {
        const y = v.getUTCFullYear();
        if (y >= 1000 && y <= 9999) return isoString(v);
      }
      return generic(v);
    });
  }
  return guard(generic);
}

function objectCompleter(plan: ObjectPlan): Completer {
  const isTypeOf = plan.type.isTypeOf;
  if (!isTypeOf) {
    return (value, run) => {
      if (value == null) return null;
      if (value instanceof Error) throw BAIL;
      return executeObject(plan, value, run);
    };
  }
  return (value, run, info) => {
    if (value == null) return null;
    if (value instanceof Error) throw BAIL;
    const ok = isTypeOf(value, run.ctx, info);
    if (isPromiseLike(ok)) {
      return Promise.resolve(ok).then((yes) => {
        if (!yes) throw BAIL;
        return executeObject(plan, value, run);
      });
    }
    if (!ok) throw BAIL;
    return executeObject(plan, value, run);
  };
}

function infoFor(f: FieldPlan, run: Run): GraphQLResolveInfo {
  let info = run.infos[f.id];
  if (!info) {
    info = {
      fieldName: f.name,
      fieldNodes: f.nodes,
      returnType: f.typename ? (undefined as never) : f.def.type,
      parentType: f.parentType,
      path: f.path,
      schema: run.compiled.schema,
      fragments: run.compiled.fragmentMap,
      rootValue: undefined,
      operation: run.compiled.operation,
      variableValues: run.vars,
    };
    run.infos[f.id] = info;
  }
  return info;
}

function argsFor(f: FieldPlan, run: Run): Record<string, unknown> {
  if (f.args) return f.args;
  let args = run.args[f.id];
  if (!args) {
    args = getArgumentValues(f.def, f.nodes[0], run.vars);
    run.args[f.id] = args;
  }
  return args;
}

/** graphql-js' defaultFieldResolver. */
function readProperty(source: unknown, args: Record<string, unknown>, ctx: unknown, info: GraphQLResolveInfo): unknown {
  if ((typeof source === 'object' && source !== null) || typeof source === 'function') {
    const property = (source as Record<string, unknown>)[info.fieldName];
    if (typeof property === 'function') return (source as Record<string, (...a: unknown[]) => unknown>)[info.fieldName](args, ctx, info);
    return property;
  }
  return undefined;
}

/**
 * Resolves when every promise fulfilled; when one rejects, rejects only after all have settled, so nothing of
 * an abandoned run still executes when graphql-js starts the request again.
 */
function allOrBail(promises: unknown[]): Promise<unknown> {
  return Promise.all(promises).catch(() =>
    Promise.allSettled(promises).then(() => {
      throw BAIL;
    }),
  );
}

function executeObject(plan: ObjectPlan, source: unknown, run: Run): Record<string, unknown> | Promise<Record<string, unknown>> {
  // A plain object (graphql-js uses Object.create(null)): it gets a hidden class per plan, and
  // JSON.stringify serializes those much faster than dictionary-mode objects. `__proto__` keys get no plan.
  const out: Record<string, unknown> = {};
  let pending: Promise<unknown>[] | undefined;
  const fields = plan.fields;
  try {
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (f.typename) {
        out[f.key] = plan.type.name;
        continue;
      }
      const info = infoFor(f, run);
      const args = argsFor(f, run);
      const raw = f.resolve ? f.resolve(source, args, run.ctx, info) : readProperty(source, args, run.ctx, info);
      const value = isPromiseLike(raw) ? Promise.resolve(raw).then((r) => f.complete(r, run, info)) : f.complete(raw, run, info);
      out[f.key] = value;
      if (isPromiseLike(value)) {
        const key = f.key;
        (pending ??= []).push(
          Promise.resolve(value).then((v) => {
            out[key] = v;
          }),
        );
      }
    }
  } catch (e) {
    if (pending) return allOrBail([...pending, Promise.reject(e)]) as never;
    throw e;
  }
  if (!pending) return out;
  return allOrBail(pending).then(() => out);
}

