/**
 * GraphQL cases generated from the schema (src/graphql/schema.ts getSchema()): one operation per root
 * Query or Mutation field, with
 *  - arguments built from their types (scalars, enums, lists, input objects; real values by name: owner,
 *    name, login, repository, number, id/ids, after/before, placeholderId, …),
 *  - a selection set built from the return type: every leaf field, object fields to a bounded depth
 *    (connection/edge/pageInfo wrappers do not count), fragments on each possible type of interfaces and
 *    unions, connections with a small `first`,
 *  - each argument sent inline or as a variable.
 * Modes as for REST: valid, one-bad (one argument, anywhere in the tree, or one field of an input object,
 * replaced by a hostile value or dropped) and random. New fields and types are covered without editing the test.
 */
import fc from 'fast-check';
import {
  getNamedType,
  GraphQLField,
  GraphQLInputType,
  GraphQLNamedType,
  GraphQLObjectType,
  GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
} from 'graphql';
import { FuzzCase, makeCase, toJsonText } from './case';
import type { Binding, FuzzFixtures } from './fixtures';
import { memoized } from './memo';
import { badStrings, enc } from './rest';
import { anyValue, awkwardNumber, EnumName, FuzzValue, hugeString, pointerKind, RawNumber, tamperedCursor, tamperedId } from './values';

interface Arg {
  name: string;
  type: GraphQLInputType;
  /** undefined: omitted. */
  value: FuzzValue | undefined;
  variable: boolean;
  /** Declared variable type when sent as a variable (normally the argument's own type). */
  varType?: string;
}

interface Field {
  name: string;
  args: Arg[];
  sel: Sel[];
}

type Sel = { field: Field; alias?: string } | { on: string; sel: Sel[] };

// ---------------------------------------------------------------------------------------------------------
// Valid argument values.

const lower = 'abcdefghijklmnopqrstuvwxyz0123456789';

function validScalar(typeName: string, name: string, b: Binding, fx: FuzzFixtures): fc.Arbitrary<FuzzValue> {
  switch (name) {
    case 'id':
    case 'ids':
      return fc.constantFrom(...fx.nodeIds);
    case 'login':
      return fc.constantFrom(...fx.logins);
    case 'owner':
      return fc.constant(b.owner);
    case 'name':
      return fc.constant(b.repo);
    case 'repository':
      return fc.constant(`${b.owner}/${b.repo}`);
    case 'number':
      return fc.constant(b.number ?? 1);
    case 'first':
    case 'last':
      return fc.integer({ min: 0, max: 3 });
    case 'after':
    case 'before':
      return fc.constantFrom(...fx.gqlCursors);
    case 'placeholderId':
      return fx.placeholderIds.length ? fc.constantFrom(...fx.placeholderIds) : fc.constant('x');
    case 'assignee':
      return fc.constantFrom(...fx.logins);
    case 'secretTypes':
    case 'excludeSecretTypes':
      return fc.constantFrom(...fx.secretTypes);
    case 'providers':
    case 'excludeProviders':
      return fx.providers.length ? fc.constantFrom(...fx.providers) : fc.constant('amazon_aws');
    case 'url':
      return fc.constantFrom('https://example.com/acme/website/issues/2', 'http://example.com/x#c1');
    case 'ref':
      return fc.constantFrom('refs/heads/main', 'refs/heads/feature');
    case 'sha':
      return fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 40, maxLength: 40 });
    case 'path':
      return fc.constantFrom('README.md', 'src/index.js', '.env');
    case 'content':
      return fc.constantFrom('hello', 'no secrets here\n', 'password = "hunter2"\n');
    case 'resolutionComment':
      return fc.constantFrom('fuzz', 'Sample token');
    // The workflow fields (ARNs learnt over the wire; `definition` is an ARN in filters, an ASL text in inputs).
    case 'arn':
      return fc.constantFrom(...fx.workflow.stateMachineArns, ...fx.workflow.executionArns);
    case 'definitionArn':
      return fc.constantFrom(...fx.workflow.stateMachineArns);
    case 'definition':
      return fc.constantFrom(...fx.workflow.stateMachineArns, '{"StartAt":"P","States":{"P":{"Type":"Pass","End":true}}}');
    case 'roleArn':
      return fc.constantFrom('arn:aws:iam::000000000000:role/fuzz', 'arn:aws:iam::123456789012:role/service-role/other');
    case 'input':
      return fc.constantFrom('{}', '{"i":1}', '[1,2]');
  }
  switch (typeName) {
    case 'Int':
      return fc.integer({ min: 0, max: 5 });
    case 'Float':
      return fc.double({ min: 0, max: 10, noNaN: true });
    case 'Boolean':
      return fc.boolean();
    case 'ID':
      return fc.constantFrom(...fx.nodeIds);
    case 'DateTimeISO':
    case 'DateTime':
      return fc.constantFrom('2024-01-01T00:00:00.000Z', new Date().toISOString());
    default:
      return fc.string({ unit: fc.constantFrom(...lower), minLength: 1, maxLength: 10 });
  }
}

function validInput(type: GraphQLInputType, name: string, b: Binding, fx: FuzzFixtures, depth = 0): fc.Arbitrary<FuzzValue | undefined> {
  if (isNonNullType(type)) return validPresent(type.ofType, name, b, fx, depth);
  const present = validPresent(type, name, b, fx, depth);
  // Nullable: sometimes left out (never null in valid mode: null has its own meaning for some fields).
  return fc.option(present, { nil: undefined, freq: 2 });
}

function validPresent(type: GraphQLInputType, name: string, b: Binding, fx: FuzzFixtures, depth: number): fc.Arbitrary<FuzzValue> {
  if (isNonNullType(type)) return validPresent(type.ofType, name, b, fx, depth);
  if (isListType(type)) return fc.array(validPresent(type.ofType as GraphQLInputType, name, b, fx, depth + 1), { minLength: 1, maxLength: 2 });
  if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((v) => new EnumName(v.name)));
  if (isInputObjectType(type)) {
    if (depth > 4) return fc.constant({});
    const fields = Object.values(type.getFields());
    return fc.tuple(...fields.map((f) => validInput(f.type, f.name, b, fx, depth + 1))).map((vals) => {
      const o: Record<string, FuzzValue> = {};
      fields.forEach((f, i) => {
        if (vals[i] !== undefined) o[f.name] = vals[i] as FuzzValue;
      });
      return o;
    });
  }
  return validScalar(getNamedType(type).name, name, b, fx);
}

// ---------------------------------------------------------------------------------------------------------
// Selection sets.

const WRAPPER = /(?:Connection|Edge)$|^PageInfo$/;

function validArgs(field: GraphQLField<unknown, unknown>, b: Binding, fx: FuzzFixtures, variableOdds: fc.Arbitrary<boolean>): fc.Arbitrary<Arg[]> {
  if (!field.args.length) return fc.constant([]);
  const isConnection = WRAPPER.test(getNamedType(field.type).name) && /Connection$/.test(getNamedType(field.type).name);
  return fc.tuple(
    ...field.args.map((a) => {
      // Connections always get a small page (the default is 30 and would multiply the cost).
      const value = isConnection && a.name === 'first' ? fc.integer({ min: 1, max: 3 }) : validInput(a.type, a.name, b, fx);
      return fc.record({ value, variable: variableOdds }).map(({ value, variable }) => ({ name: a.name, type: a.type, value, variable }) as Arg);
    }),
  ).map((args) => {
    // `first` with `last` is refused; keep valid pages forward.
    if (args.some((a) => a.name === 'first' && a.value !== undefined)) return args.map((a) => (a.name === 'last' ? { ...a, value: undefined } : a));
    return args;
  });
}

function selectionOf(type: GraphQLNamedType, depth: number, schema: GraphQLSchema, b: Binding, fx: FuzzFixtures, variableOdds: fc.Arbitrary<boolean>): fc.Arbitrary<Sel[]> {
  if (isLeafType(type)) return fc.constant([]);
  if (isInterfaceType(type) || isUnionType(type)) {
    const possible = schema.getPossibleTypes(type);
    const own = isInterfaceType(type) ? objectFields(type.getFields() as never, depth, schema, b, fx, variableOdds, true) : fc.constant<Sel[]>([]);
    return fc
      .tuple(own, ...possible.map((t) => (depth > 0 ? selectionOf(t, depth - 1, schema, b, fx, variableOdds) : leafOnly(t))))
      .map(([mine, ...frags]) => {
        // Fields of one name but different types in two fragments cannot be merged: alias the later ones.
        const typeOf = new Map<string, string>();
        for (const f of Object.values(isInterfaceType(type) ? type.getFields() : {})) typeOf.set(f.name, String(f.type));
        const fragments = frags.map((sel, i) => {
          const fields = possible[i].getFields();
          return {
            on: possible[i].name,
            sel: sel.map((x) => {
              if (!('field' in x) || x.field.name === '__typename') return x;
              const t = String(fields[x.field.name].type);
              const seen = typeOf.get(x.field.name);
              if (seen === undefined) typeOf.set(x.field.name, t);
              return seen === undefined || seen === t ? x : { ...x, alias: `${possible[i].name}_${x.field.name}` };
            }),
          };
        });
        return [{ field: { name: '__typename', args: [], sel: [] } }, ...mine, ...fragments] as Sel[];
      });
  }
  if (isObjectType(type)) return objectFields(type.getFields() as never, depth, schema, b, fx, variableOdds, false);
  return fc.constant([]);
}

function leafOnly(t: GraphQLObjectType): fc.Arbitrary<Sel[]> {
  const leaves = Object.values(t.getFields()).filter((f) => isLeafType(getNamedType(f.type)) && !f.args.some((a) => isNonNullType(a.type)));
  return fc.constant(leaves.map((f) => ({ field: { name: f.name, args: [], sel: [] } })));
}

function objectFields(
  fields: Record<string, GraphQLField<unknown, unknown>>,
  depth: number,
  schema: GraphQLSchema,
  b: Binding,
  fx: FuzzFixtures,
  variableOdds: fc.Arbitrary<boolean>,
  leavesOnly: boolean,
): fc.Arbitrary<Sel[]> {
  const all = Object.values(fields);
  const leaves = all.filter((f) => isLeafType(getNamedType(f.type)));
  const objects = leavesOnly ? [] : all.filter((f) => !isLeafType(getNamedType(f.type)));
  const leafSel = fc.tuple(...leaves.map((f) => validArgs(f, b, fx, variableOdds))).map((argss) => leaves.map((f, i) => ({ field: { name: f.name, args: argss[i], sel: [] } }) as Sel));
  const objSel = objects.map((f) => {
    const named = getNamedType(f.type);
    const wrapper = WRAPPER.test(named.name);
    if (!wrapper && depth <= 0) return fc.constant<Sel | undefined>(undefined);
    const inner = selectionOf(named, wrapper ? depth : depth - 1, schema, b, fx, variableOdds);
    return fc.option(
      fc.tuple(validArgs(f, b, fx, variableOdds), inner).map(([args, sel]) => ({ field: { name: f.name, args, sel } }) as Sel),
      { nil: undefined, freq: wrapper ? 5 : 2 },
    );
  });
  return fc.tuple(leafSel, ...objSel).map(([ls, ...os]) => {
    const sel = [...ls, ...(os.filter(Boolean) as Sel[])];
    // An object type needs a selection: __typename when nothing else was chosen.
    return sel.length ? sel : [{ field: { name: '__typename', args: [], sel: [] } }];
  });
}

// ---------------------------------------------------------------------------------------------------------
// Printing.

function gqlName(k: string): string {
  const s = k.replace(/[^_A-Za-z0-9]/g, '_');
  return /^[_A-Za-z]/.test(s) ? s : `_${s}`;
}

export function printLiteral(v: FuzzValue): string {
  if (v instanceof RawNumber) return v.text;
  if (v instanceof EnumName) return v.name;
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(printLiteral).join(', ')}]`;
  if (typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${gqlName(k)}: ${printLiteral(x)}`).join(', ')}}`;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : String(v); // NaN / Infinity: enum-like names
  if (typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

interface Printed {
  text: string;
  vars: Array<[string, string, FuzzValue | undefined]>;
}

function printSel(sel: Sel[], out: Printed): string {
  return sel
    .map((s) => {
      if ('on' in s) return `... on ${s.on} { ${printSel(s.sel, out)} }`;
      const f = s.field;
      const args = f.args
        .filter((a) => a.value !== undefined || a.variable)
        .map((a) => {
          if (a.variable) {
            const name = `v${out.vars.length}`;
            out.vars.push([name, a.varType ?? String(a.type), a.value]);
            return `${a.name}: $${name}`;
          }
          return `${a.name}: ${printLiteral(a.value as FuzzValue)}`;
        });
      const head = `${s.alias ? `${s.alias}: ` : ''}${f.name}${args.length ? `(${args.join(', ')})` : ''}`;
      return f.sel.length ? `${head} { ${printSel(f.sel, out)} }` : head;
    })
    .join(' ');
}

export interface GqlOptions {
  keyword: 'query' | 'mutation' | 'subscription';
  transport: 'post' | 'get';
  /** Extra top-level body members, verbatim JSON text (e.g. tampered extensions or variables). */
  extraBody?: Record<string, string>;
}

function request(root: Field, opts: GqlOptions): FuzzCase['request'] {
  const out: Printed = { text: '', vars: [] };
  const selection = printSel([{ field: root }], out);
  const decl = out.vars.length ? `(${out.vars.map(([n, t]) => `$${n}: ${t}`).join(', ')})` : '';
  const query = `${opts.keyword} Fuzz${decl} { ${selection} }`;
  const varsText = `{${out.vars
    .filter(([, , v]) => v !== undefined)
    .map(([n, , v]) => `"${n}":${toJsonText(v)}`)
    .join(',')}}`;
  const members: Record<string, string> = { query: JSON.stringify(query), operationName: '"Fuzz"', ...(out.vars.length ? { variables: varsText } : {}), ...opts.extraBody };
  if (opts.transport === 'get') {
    const qs = Object.entries(members)
      .map(([k, v]) => {
        let s: string;
        try {
          const parsed = JSON.parse(v) as unknown;
          s = typeof parsed === 'string' ? parsed : v;
        } catch {
          s = v;
        }
        return `${k}=${enc(s)}`;
      })
      .join('&');
    const target = `/graphql?${qs}`;
    if (target.length < 8000) return { method: 'GET', target, headers: { 'apollo-require-preflight': 'true', accept: 'application/json' } };
  }
  const body = `{${Object.entries(members)
    .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
    .join(',')}}`;
  return { method: 'POST', target: '/graphql', headers: { 'content-type': 'application/json', accept: 'application/json' }, body };
}

// ---------------------------------------------------------------------------------------------------------
// Hostile values and where they go.

const badGqlValue = memoized(function badGqlValue(fx: FuzzFixtures, type: GraphQLInputType, name: string): fc.Arbitrary<FuzzValue | undefined> {
  const named = getNamedType(type);
  const kind = pointerKind(name, named.name);
  if (kind === 'cursor') return fc.oneof(tamperedCursor(fx.gqlCursors), badAny(fx, type));
  if (kind === 'id' && named.name === 'ID') {
    const ids = tamperedId(fx.nodeIds);
    return fc.oneof(ids, fc.array(fc.oneof(ids, fc.constantFrom(...fx.nodeIds)), { minLength: 1, maxLength: 5 }), badAny(fx, type));
  }
  return badAny(fx, type);
});

function badAny(fx: FuzzFixtures, type: GraphQLInputType): fc.Arbitrary<FuzzValue | undefined> {
  const named = getNamedType(type);
  const enumish = isEnumType(named)
    ? fc.constantFrom<FuzzValue>(...named.getValues().flatMap((v) => [v.name.toLowerCase(), new EnumName(v.name.toLowerCase()), v.name]), new EnumName('NOPE'))
    : fc.constantFrom<FuzzValue>(new EnumName('NOPE'), new EnumName('NaN'), new EnumName('Infinity'));
  return fc.oneof(
    { arbitrary: anyValue, weight: 6 },
    { arbitrary: badStrings(fx), weight: 4 },
    { arbitrary: tamperedCursor(fx.gqlCursors), weight: 3 },
    { arbitrary: tamperedId(fx.nodeIds), weight: 3 },
    { arbitrary: fc.array(fc.oneof(tamperedId(fx.nodeIds), fc.constantFrom(...fx.nodeIds)), { minLength: 1, maxLength: 5 }), weight: 2 },
    { arbitrary: awkwardNumber, weight: 2 },
    { arbitrary: hugeString, weight: 1 },
    { arbitrary: enumish, weight: 1 },
    { arbitrary: fc.constantFrom<FuzzValue | undefined>(null, undefined), weight: 1 },
  );
}

/** Every place one bad value can go: an argument, or a field inside an input object value (by key path). */
interface ArgSlot {
  /** The argument's or input field's name. */
  name: string;
  arg: Arg;
  keys: Array<string | number>;
  type: GraphQLInputType;
  label: string;
}

function inputSlots(arg: Arg, fieldPath: string): ArgSlot[] {
  const slots: ArgSlot[] = [];
  const walk = (type: GraphQLInputType, value: FuzzValue | undefined, keys: Array<string | number>, label: string, depth: number) => {
    const last = [...keys].reverse().find((k) => typeof k === 'string');
    slots.push({ name: typeof last === 'string' ? last : arg.name, arg, keys, type, label });
    if (depth > 3) return;
    const t = isNonNullType(type) ? type.ofType : type;
    if (isListType(t)) {
      if (Array.isArray(value) && value.length) walk(t.ofType as GraphQLInputType, value[0], [...keys, 0], `${label}[0]`, depth + 1);
      return;
    }
    if (isInputObjectType(t)) {
      for (const f of Object.values(t.getFields())) {
        const sub = value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof RawNumber) && !(value instanceof EnumName) ? (value as Record<string, FuzzValue>)[f.name] : undefined;
        walk(f.type, sub, [...keys, f.name], `${label}.${f.name}`, depth + 1);
      }
    }
  };
  walk(arg.type, arg.value, [], `${fieldPath}(${arg.name})`, 0);
  return slots;
}

function collectSlots(f: Field, path: string, out: ArgSlot[]): void {
  for (const a of f.args) out.push(...inputSlots(a, path));
  for (const s of f.sel) {
    if ('on' in s) s.sel.forEach((x) => 'field' in x && collectSlots(x.field, `${path}.${x.field.name}`, out));
    else collectSlots(s.field, `${path}.${s.field.name}`, out);
  }
}

function setIn(value: FuzzValue | undefined, keys: Array<string | number>, v: FuzzValue | undefined): FuzzValue | undefined {
  if (!keys.length) return v;
  const [k, ...rest] = keys;
  if (typeof k === 'number') {
    const arr = Array.isArray(value) ? [...value] : [];
    const next = setIn(arr[k], rest, v);
    arr[k] = next === undefined ? null : next;
    return arr;
  }
  const obj: Record<string, FuzzValue> = value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, FuzzValue>) } : {};
  const next = setIn(obj[k], rest, v);
  if (next === undefined) delete obj[k];
  else obj[k] = next;
  return obj;
}

/** A copy of the tree with `slot` set to `v` (the tree is copied along the way; the rest is shared). */
function replaceArg(f: Field, target: Arg, next: Arg): Field {
  return {
    ...f,
    args: f.args.map((a) => (a === target ? next : a)),
    sel: f.sel.map((s) => ('on' in s ? { on: s.on, sel: s.sel.map((x) => ('field' in x ? { ...x, field: replaceArg(x.field, target, next) } : x)) } : { ...s, field: replaceArg(s.field, target, next) })),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Cases.

export interface RootField {
  operation: 'query' | 'mutation';
  field: GraphQLField<unknown, unknown>;
  label: string;
}

export function rootFields(schema: GraphQLSchema): RootField[] {
  const out: RootField[] = [];
  for (const [operation, type] of [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ] as const) {
    if (!type) continue;
    for (const field of Object.values(type.getFields())) out.push({ operation, field, label: `${type.name}.${field.name}` });
  }
  return out;
}

function validTree(root: RootField, schema: GraphQLSchema, fx: FuzzFixtures, depthMax: number): fc.Arbitrary<{ tree: Field; transport: 'post' | 'get' }> {
  const variableOdds = fc.boolean();
  const treeOf = memoized((b: Binding, depth: number) =>
    fc.record({
      args: validArgs(root.field, b, fx, variableOdds),
      sel: selectionOf(getNamedType(root.field.type), depth, schema, b, fx, variableOdds),
      transport: root.operation === 'query' ? fc.constantFrom<'post' | 'get'>('post', 'post', 'post', 'get') : fc.constant<'post' | 'get'>('post'),
    }).map(({ args, sel, transport }) => ({ tree: { name: root.field.name, args, sel }, transport })),
  );
  return fc.tuple(fc.constantFrom(...fx.bindings.filter((b) => b.number !== undefined)), fc.integer({ min: 0, max: depthMax })).chain(([b, depth]) => treeOf(b, depth));
}

export function gqlValid(root: RootField, schema: GraphQLSchema, fx: FuzzFixtures): fc.Arbitrary<FuzzCase> {
  return validTree(root, schema, fx, 2).map(({ tree, transport }) =>
    makeCase({ kind: 'graphql', mode: 'valid', target: root.label, oracle: 'graphql', request: request(tree, { keyword: root.operation, transport }) }),
  );
}

export function gqlOneBad(root: RootField, schema: GraphQLSchema, fx: FuzzFixtures): fc.Arbitrary<FuzzCase> {
  return validTree(root, schema, fx, 2).chain(({ tree, transport }) => {
    const slots: ArgSlot[] = [];
    collectSlots(tree, root.label, slots);
    if (!slots.length) {
      // No argument anywhere: tamper with the variables / extensions of the request instead.
      return envelopeTamper.map((extraBody) =>
        makeCase({ kind: 'graphql', mode: 'one-bad', target: root.label, bad: 'envelope', oracle: 'graphql', request: request(tree, { keyword: root.operation, transport: 'post', extraBody }) }),
      );
    }
    // Arguments of the root field (the request's own parameters) x4, cursor and id arguments x4.
    const rootArg = `${root.label}(`;
    const pick = fc.oneof(...slots.map((x) => ({ arbitrary: fc.constant(x), weight: (x.label.startsWith(rootArg) ? 4 : 1) * (pointerKind(x.name, getNamedType(x.type).name) ? 4 : 1) })));
    return fc.tuple(pick, fc.boolean(), fc.option(fc.constantFrom('String', 'Int', 'ID!', '[ID!]!', 'Boolean', 'Float', 'JSON', '[String]'), { nil: undefined, freq: 5 })).chain(([slot, asVariable, wrongVarType]) =>
      badGqlValue(fx, slot.type, slot.name).map((bad) => {
        const next: Arg = { ...slot.arg, value: setIn(slot.arg.value, slot.keys, bad), variable: asVariable, varType: asVariable ? wrongVarType : undefined };
        const t = replaceArg(tree, slot.arg, next);
        return makeCase({ kind: 'graphql', mode: 'one-bad', target: root.label, bad: slot.label, oracle: 'graphql', request: request(t, { keyword: root.operation, transport }) });
      }),
    );
  });
}

/** Tampered request envelopes: variables that are not an object, persisted-query extensions, … */
const envelopeTamper: fc.Arbitrary<Record<string, string>> = fc.constantFrom<Record<string, string>>(
  { variables: '[1]' },
  { variables: '"x"' },
  { variables: '{"__proto__":{"a":1}}' },
  { operationName: '"Other"' },
  { operationName: '{"a":1}' },
  { extensions: '{"persistedQuery":{"version":2,"sha256Hash":"abc"}}' },
  { extensions: '{"persistedQuery":{"version":1,"sha256Hash":"abc"}}' },
  { extensions: '{"persistedQuery":{"version":1}}' },
  { extensions: '"x"' },
  { query: '1e400' },
  { query: '""' },
  { query: 'null' },
  { query: '"{ __typename }"', variables: '{"a":1e400}' },
);

export function gqlRandom(root: RootField, schema: GraphQLSchema, fx: FuzzFixtures): fc.Arbitrary<FuzzCase> {
  return validTree(root, schema, fx, 3).chain(({ tree, transport }) => {
    const slots: ArgSlot[] = [];
    collectSlots(tree, root.label, slots);
    const topArgs = slots.filter((s) => s.keys.length === 0);
    return fc
      .record({
        bads: fc.tuple(...topArgs.map((s) => fc.option(badGqlValue(fx, s.type, s.name), { nil: undefined, freq: 2 }).map((v) => [s, v] as const))),
        keyword: fc.oneof({ arbitrary: fc.constant(root.operation), weight: 8 }, { arbitrary: fc.constantFrom<GqlOptions['keyword']>('query', 'mutation', 'subscription'), weight: 1 }),
        transport: fc.oneof({ arbitrary: fc.constant(transport), weight: 4 }, { arbitrary: fc.constantFrom<'post' | 'get'>('post', 'get'), weight: 1 }),
        extraBody: fc.option(envelopeTamper, { nil: undefined, freq: 6 }),
        variable: fc.boolean(),
      })
      .map(({ bads, keyword, transport: tr, extraBody, variable }) => {
        let t = tree;
        // Each argument anywhere in the tree: kept valid (undefined) or replaced by a hostile value.
        for (const [slot, v] of bads) if (v !== undefined) t = replaceArg(t, slot.arg, { ...slot.arg, value: v, variable });
        return makeCase({ kind: 'graphql', mode: 'random', target: root.label, oracle: 'graphql', request: request(t, { keyword, transport: tr, extraBody }) });
      });
  });
}
