/**
 * Direct resolver calls for type-graphql resolver methods that need none of type-graphql's per-call work.
 *
 * type-graphql wraps every @Query/@FieldResolver method in `createHandlerResolver`: per call it looks the
 * resolver instance up in its container, runs the middleware chain, sorts the parameter metadata, converts
 * each argument to an instance and validates it with class-validator through an async function (so a method
 * with any @Arg is only called a microtask later, and answers a promise). For a method whose parameters are
 * only @Root (of an entity class the value already is an instance of), @Ctx, @Info and plain scalar or enum
 * @Arg values (which type-graphql passes through unchanged and never validates), with no middleware and no
 * @Authorized roles, that is the same call at a fraction of the cost: the method is called with the same
 * arguments, on the same instance.
 *
 * Applied once, on the built schema, from type-graphql's metadata: graphql-js and the compiled executor both use the
 * result. @Args classes of plain scalar or enum fields (ConnectionArgs, CalendarPageArgs) are converted as
 * type-graphql converts them (a new instance holding the given fields) and validated with the same
 * class-validator call and options; an arguments object that passed once is not validated again (the compiled
 * plan computes a document's constant arguments once, so their validation is done once per document; the
 * rules read only the values). Anything else keeps type-graphql's wrapper: input objects, lists, custom param
 * decorators, validate functions. At run time a @Root value that is not an instance of its declared class, or
 * an @Arg value that is an object, goes through the wrapper too.
 *
 * Kept because it is measured (bench/README.md: org-repositories and the calendar page >= 10 % CPU per request);
 * fenced: type-graphql is pinned exactly, ./metadata-shape.ts stops the start when its metadata differs, and
 * ./direct-resolvers.spec.ts compares every document's answers and errors with and without direct calls.
 */
import { validateOrReject, ValidatorOptions } from 'class-validator';
import { GraphQLObjectType, GraphQLScalarType, GraphQLSchema, isObjectType } from 'graphql';
import { ArgumentValidationError, getMetadataStorage } from 'type-graphql';
import { assertTypeGraphqlMetadataShape } from './metadata-shape';

type Resolve = (root: unknown, args: Record<string, unknown>, ctx: unknown, info: unknown) => unknown;

/** What buildSchema was given that would add per-call work to every resolver. */
export interface ResolverBuildOptions {
  globalMiddlewares?: unknown[];
  authChecker?: unknown;
  /** The container buildSchema was given: resolver methods are called on the instances it holds. */
  container: ResolverContainer;
  validateFn?: unknown;
  /** buildSchema's `validate` setting; without it, @Args classes keep type-graphql's wrapper. */
  validate?: boolean | ValidatorOptions;
}

/**
 * type-graphql's default container, made explicit so direct calls use the very instances type-graphql's
 * wrappers use: one instance per resolver class, created without arguments on first use.
 */
export class ResolverContainer {
  private readonly instances = new Map<unknown, unknown>();

  get<T>(someClass: new () => T): T {
    let i = this.instances.get(someClass) as T | undefined;
    if (i === undefined) {
      i = new someClass();
      this.instances.set(someClass, i);
    }
    return i;
  }
}

interface ParamMeta {
  kind: string;
  index: number;
  propertyName?: string;
  name?: string;
  getType?: () => unknown;
  typeOptions?: { array?: boolean; arrayDepth?: number };
  validateFn?: unknown;
  validateSettings?: unknown;
}

interface HandlerMeta {
  target: new () => Record<string, (...args: unknown[]) => unknown>;
  methodName: string;
  schemaName: string;
  params?: ParamMeta[];
  middlewares?: unknown[];
  roles?: unknown[];
  kind?: string;
  getObjectType?: () => unknown;
}

/** Values type-graphql's convertToType hands back unchanged (primitives of these constructors, Dates). */
const PASS_THROUGH_ARG_TYPES = new Set<unknown>([String, Number, Boolean, Date]);

/** One getter per parameter, or null when the parameter needs type-graphql's conversion or validation. */
type Getter = (root: unknown, args: Record<string, unknown>, ctx: unknown, info: unknown) => unknown;

function plainType(type: unknown, enums: Set<unknown>): boolean {
  return PASS_THROUGH_ARG_TYPES.has(type) || type instanceof GraphQLScalarType || enums.has(type);
}

function plainArgType(p: ParamMeta, enums: Set<unknown>): boolean {
  if (p.typeOptions?.array || p.validateFn) return false;
  return plainType(p.getType?.(), enums);
}

interface ArgsFieldMeta {
  name: string;
  getType(): unknown;
  typeOptions?: { array?: boolean };
}

type ClassFields = Array<{ target: unknown; fields: ArgsFieldMeta[] }>;

/** The class's fields and its superclasses' (type-graphql's order; `dedupe`: input types skip overridden names). */
function classFields(list: ClassFields, target: unknown, dedupe: boolean): ArgsFieldMeta[] | null {
  const own = list.find((a) => a.target === target);
  if (!own) return null;
  let fields = [...own.fields];
  for (let sup = Object.getPrototypeOf(target); sup && sup.prototype !== undefined; sup = Object.getPrototypeOf(sup)) {
    const s = list.find((a) => a.target === sup);
    if (!s) continue;
    const names = new Set(fields.map((f) => f.name));
    fields = [...fields, ...(dedupe ? s.fields.filter((f) => !names.has(f.name)) : s.fields)];
  }
  return fields;
}

/** validateArg's options for a parameter: null when it is not validated. */
function validatorOptions(globalValidate: boolean | ValidatorOptions, local: boolean | ValidatorOptions | undefined): ValidatorOptions | null {
  const validate = local !== undefined ? local : globalValidate;
  if (validate === false) return null;
  const options: ValidatorOptions = { ...(typeof globalValidate === 'object' ? globalValidate : {}), ...(typeof local === 'object' ? local : {}) };
  if (options.skipMissingProperties !== false) options.skipMissingProperties = true;
  if (options.forbidUnknownValues !== true) options.forbidUnknownValues = false;
  return options;
}

type Convert = (given: Record<string, unknown>) => Record<string, unknown>;

/**
 * type-graphql's conversion of an arguments object (`isArgs`) or of an input object into an instance of `Target`
 * (convert-args.ts): the class's and its superclasses' fields that were given, nested input objects converted the
 * same way (lists item by item), plain scalar and enum values as they are (an @Args list field as a copy), all on
 * a new instance whose unset initializers are dropped. Null for a class with fields of any other kind.
 */
function converter(Target: unknown, isArgs: boolean, enums: Set<unknown>, depth = 0): Convert | null {
  if (typeof Target !== 'function' || depth > 16) return null;
  const storage = getMetadataStorage() as unknown as { argumentTypes: ClassFields; inputTypes: ClassFields };
  const fields = classFields(isArgs ? storage.argumentTypes : storage.inputTypes, Target, !isArgs);
  if (!fields) return null;
  const plans: Array<{ name: string; nested: Convert | null; copyList: boolean }> = [];
  for (const f of fields) {
    const type = f.getType();
    if (plainType(type, enums)) {
      plans.push({ name: f.name, nested: null, copyList: isArgs && Boolean(f.typeOptions?.array) });
      continue;
    }
    if (!storage.inputTypes.some((t) => t.target === type)) return null;
    const nested = converter(type, false, enums, depth + 1);
    if (!nested) return null;
    plans.push({ name: f.name, nested, copyList: false });
  }
  const New = Target as new () => Record<string, unknown>;
  const convert: Convert = (given) => {
    const data: Record<string, unknown> = {};
    for (const p of plans) {
      const v = given[p.name];
      if (v === undefined) continue;
      if (v === null) data[p.name] = v;
      else if (p.nested) data[p.name] = convertItems(p.nested, v);
      else data[p.name] = p.copyList && Array.isArray(v) ? v.slice() : v;
    }
    const instance = new New();
    for (const key of Object.keys(instance)) if (instance[key] === undefined && !(key in data)) delete instance[key];
    return Object.assign(instance, data);
  };
  return convert;
}

/** A nested input value: null as it is, lists item by item, objects converted. */
function convertItems(nested: Convert, v: unknown): unknown {
  if (v === null || v === undefined) return v;
  if (Array.isArray(v)) return v.map((x) => convertItems(nested, x));
  return nested(v as Record<string, unknown>);
}

/**
 * The getter of an @Args parameter, or of an @Arg of an input class, that `converter` can convert:
 * type-graphql's conversion and `validateArg` (class-validator's validateOrReject with the same merged options,
 * failures as ArgumentValidationError), the latter skipped for an arguments object (input value) that passed
 * before. Null when the class needs more.
 */
function classGetter(p: ParamMeta, globalValidate: ResolverBuildOptions['validate'], enums: Set<unknown>): Getter | null {
  if (globalValidate === undefined || p.validateFn || p.typeOptions?.array) return null;
  const isArgs = p.kind === 'args';
  if (!isArgs && (p.kind !== 'arg' || !p.name)) return null;
  const convert = converter(p.getType?.(), isArgs, enums);
  if (!convert) return null;
  const options = validatorOptions(globalValidate, p.validateSettings as boolean | ValidatorOptions | undefined);
  const passed = new WeakSet<object>();
  const argName = p.name!;
  return (_root, args) => {
    const given = isArgs ? args : (args[argName] as Record<string, unknown> | null | undefined);
    // A null or missing input value is passed as it is, unvalidated (type-graphql's convertArgToInstance/validateArg).
    if (given === null || given === undefined) return given;
    const instance = convert(given);
    if (options === null || passed.has(given)) return instance;
    return validateOrReject(instance, options).then(
      () => {
        passed.add(given);
        return instance;
      },
      (errors: unknown) => {
        throw new ArgumentValidationError(errors as ConstructorParameters<typeof ArgumentValidationError>[0]);
      },
    );
  };
}

/**
 * A resolver calling the method directly, or null when it needs type-graphql's wrapper. `fallback` (the
 * wrapper) answers the calls whose values would be converted.
 */
function directResolver(
  m: HandlerMeta,
  instance: Record<string, (...args: unknown[]) => unknown>,
  fallback: Resolve,
  enums: Set<unknown>,
  validate: ResolverBuildOptions['validate'],
): Resolve | null {
  if (m.middlewares?.length || m.roles) return null;
  const method = instance[m.methodName];
  if (typeof method !== 'function') return null;
  const params = [...(m.params ?? [])].sort((a, b) => a.index - b.index);
  let rootClass: (abstract new (...a: never[]) => unknown) | undefined;
  const argNames: string[] = [];
  const getters: Getter[] = [];
  /** An @Args getter may answer a promise (its first validation): the method is called once all are known. */
  let mayWait = false;
  for (const p of params) {
    switch (p.kind) {
      case 'root': {
        if (p.propertyName) return null;
        const type = p.getType?.();
        // Object (an interface or a plain object type in TypeScript): type-graphql returns the value as is.
        if (type !== undefined && type !== Object) {
          if (typeof type !== 'function') return null;
          rootClass = type as abstract new (...a: never[]) => unknown;
        }
        getters.push((root) => root);
        break;
      }
      case 'context': {
        const prop = p.propertyName;
        getters.push(prop ? (_r, _a, ctx) => (ctx as Record<string, unknown>)[prop] : (_r, _a, ctx) => ctx);
        break;
      }
      case 'info':
        getters.push((_r, _a, _c, info) => info);
        break;
      case 'args': {
        const g = classGetter(p, validate, enums);
        if (!g) return null;
        getters.push(g);
        mayWait = true;
        break;
      }
      case 'arg': {
        if (!plainArgType(p, enums) || !p.name) {
          const g = classGetter(p, validate, enums);
          if (!g) return null;
          getters.push(g);
          mayWait = true;
          break;
        }
        const name = p.name;
        argNames.push(name);
        getters.push((_r, args) => args[name]);
        break;
      }
      default:
        return null;
    }
  }
  const n = getters.length;
  const needsCheck = rootClass !== undefined || argNames.length > 0;
  const converts = (root: unknown, args: Record<string, unknown>): boolean => {
    if (rootClass && root != null && typeof root === 'object' && !(root instanceof rootClass)) return true;
    for (const name of argNames) {
      const v = args[name];
      if (v != null && typeof v === 'object' && !(v instanceof Date)) return true;
    }
    return false;
  };
  const waiting = (root: unknown, args: Record<string, unknown>, ctx: unknown, info: unknown): unknown => {
    const values = new Array<unknown>(n);
    let pending = false;
    for (let i = 0; i < n; i++) {
      const v = getters[i](root, args, ctx, info);
      values[i] = v;
      if (!pending && v !== null && typeof v === 'object' && typeof (v as PromiseLike<unknown>).then === 'function') pending = true;
    }
    return pending ? Promise.all(values).then((vs) => method.apply(instance, vs)) : method.apply(instance, values);
  };
  const call = mayWait ? waiting : (root: unknown, args: Record<string, unknown>, ctx: unknown, info: unknown): unknown => {
    switch (n) {
      case 0:
        return method.call(instance);
      case 1:
        return method.call(instance, getters[0](root, args, ctx, info));
      case 2:
        return method.call(instance, getters[0](root, args, ctx, info), getters[1](root, args, ctx, info));
      default: {
        const values = new Array<unknown>(n);
        for (let i = 0; i < n; i++) values[i] = getters[i](root, args, ctx, info);
        return method.apply(instance, values);
      }
    }
  };
  if (!needsCheck) return call;
  return (root, args, ctx, info) => (converts(root, args) ? fallback(root, args, ctx, info) : call(root, args, ctx, info));
}

/**
 * Replace, on `schema` (built by type-graphql from `resolvers` with `options`), the resolvers of eligible
 * @Query and @FieldResolver methods by direct calls. Returns the replaced fields as `Type.field`.
 */
export function installDirectResolvers(schema: GraphQLSchema, resolvers: readonly unknown[], options: ResolverBuildOptions): string[] {
  if (options.globalMiddlewares?.length || options.authChecker || options.validateFn) return [];
  // The metadata read below is type-graphql's private storage: a different version or shape stops the start.
  assertTypeGraphqlMetadataShape();
  const storage = getMetadataStorage() as unknown as {
    queries: HandlerMeta[];
    fieldResolvers: HandlerMeta[];
    objectTypes: Array<{ target: unknown; name: string }>;
    enums: Array<{ enumObj: unknown }>;
  };
  const enums = new Set<unknown>(storage.enums.map((e) => e.enumObj));
  const used = new Set(resolvers);
  const instanceOf = (target: HandlerMeta['target']) => options.container.get(target);
  const replaced: string[] = [];
  const replace = (type: GraphQLObjectType | null | undefined, m: HandlerMeta) => {
    const field = type?.getFields()[m.schemaName];
    if (!type || !field?.resolve) return;
    const direct = directResolver(m, instanceOf(m.target), field.resolve as Resolve, enums, options.validate);
    if (!direct) return;
    field.resolve = direct as typeof field.resolve;
    replaced.push(`${type.name}.${m.schemaName}`);
  };
  const queryType = schema.getQueryType();
  for (const m of storage.queries) if (used.has(m.target)) replace(queryType, m);
  const typeNameOf = new Map<unknown, string[]>();
  for (const o of storage.objectTypes) typeNameOf.set(o.target, [...(typeNameOf.get(o.target) ?? []), o.name]);
  for (const m of storage.fieldResolvers) {
    if (m.kind !== 'external' || !used.has(m.target) || !m.getObjectType) continue;
    const objectClass = m.getObjectType();
    // Only the object types of exactly that class (a subclass may resolve the same field another way).
    const subclassed = storage.objectTypes.some(
      (o) => o.target !== objectClass && typeof o.target === 'function' && (o.target as { prototype: unknown }).prototype instanceof (objectClass as new () => unknown),
    );
    if (subclassed) continue;
    for (const name of typeNameOf.get(objectClass) ?? []) {
      const type = schema.getType(name);
      if (isObjectType(type)) replace(type, m);
    }
  }
  return replaced.sort();
}
