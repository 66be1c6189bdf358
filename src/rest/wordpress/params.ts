/**
 * WordPress REST arguments: one declaration per parameter, which both reads and checks the value (as
 * WordPress's schema validation does) and documents it (the namespace index's `args`, the /doc OpenAPI, the
 * route table's OpenAPI). Rows are built with wpRoute(): every argument of a request is checked before the
 * route's input runs (by the family's preHandler), and ONE error answers all problems:
 *  - missing required arguments: 400 `rest_missing_callback_param` "Missing parameter(s): a, b", data.params = [names]
 *  - invalid ones: 400 `rest_invalid_param` "Invalid parameter(s): a, b", data.params {name: message},
 *    data.details {name: {code, message, data}} (`[]` when no validator gave details, as PHP encodes it).
 * Where a value comes from (WP_REST_Request): GET reads the query; writes (and DELETE) read the query, then a
 * JSON or form body over it, then the path over both (the path always wins here; see the report on why).
 * Repeated query parameters keep the last value (PHP), `name[]=a&name[]=b` is a list.
 *
 * Types as rest_validate_value_from_schema / rest_sanitize_value_from_schema treat them:
 *  - integer: is_numeric and integral ("5", "5.0", 5; not "5.5", "x", true); number: is_numeric;
 *  - boolean: rest_is_boolean (true/false, "true"/"false"/"1"/"0" in any case, 1/0; "" is not a boolean);
 *  - string: a string (a JSON number is not); enum: one of the values ("x is not one of a, b, and c.");
 *  - array: a list, or a scalar split at commas and spaces (wp_parse_list), each item checked ("a[1] is not of
 *    type integer."); object: a JSON / form object; minimum / maximum (rest_out_of_bounds).
 * A custom validator (e.g. a date checker) runs on the typed value; `false` answers "Invalid parameter.".
 */
import type { RequestContext } from '../../context';
import { NotFoundError, ValidationError } from '../../errors/app-error';
import { INT4_MAX } from '../../services/common/decode';
import { isLanguage, Language, LANGUAGES } from '../../i18n';
import { checkParamCount } from '../bracket-params';
import type { Param } from '../params';
import type { HttpMethod, ParamSpec, RestRequest, RestResult, RestRoute } from '../route-table';
import { catalogMessage, CORE_MESSAGES, CoreMessageId, MessageArg } from './messages';

export type WpScalarType = 'integer' | 'number' | 'boolean' | 'string';
export type WpType = WpScalarType | 'array' | 'object';

/** A problem with one argument, as WP_Error: code, message (a catalog id + values, or a text), data. */
export interface WpArgProblem {
  code: string;
  message: { id: CoreMessageId; args: MessageArg[] } | { text: string };
  data?: Record<string, unknown> | null;
}

/** What a custom validator returns: true (fine), false ("Invalid parameter."), or a problem (with details). */
export type WpValidatorResult = boolean | WpArgProblem;

export interface WpArg<T = unknown> {
  /** WordPress schema type; absent = any value (WordPress's untyped args such as the index's `namespace`). */
  type?: WpType;
  items?: { type: WpScalarType; enum?: readonly (string | number)[] };
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  default?: T;
  required?: boolean;
  description?: string;
  format?: string;
  /** A path parameter: `integer` matches `\d+` only (anything else is no route), `slug` matches `[^/]+`. */
  path?: 'integer' | 'slug';
  /** The domain field this argument fills (error field names a service reports are answered in this name). */
  field?: string;
  /** Runs on the typed value once the type checks passed. */
  validate?(value: T, name: string): WpValidatorResult;
  /** @internal the value type, for ArgValues. */
  readonly __value?: T;
  /**
   * @internal The documented parameter made from this declaration, by argument name: rows that share a declaration
   * (PATH_ID, PATH_SLUG) share one parameter object, and it goes with the declaration.
   */
  documented?: Map<string, Param<unknown>>;
}

export type WpArgs = Record<string, WpArg<any>>;

/** The values a request gave (or their defaults): absent ones are undefined. */
export type ArgValues<A extends WpArgs> = { [K in keyof A]: A[K] extends WpArg<infer T> ? T | undefined : never };

type Common<T> = Pick<WpArg<T>, 'description' | 'required' | 'default' | 'field' | 'validate' | 'format'>;

/** Builders of argument declarations. */
export const wp = {
  integer: (o: Common<number> & { minimum?: number; maximum?: number } = {}): WpArg<number> => ({ type: 'integer', ...o }),
  number: (o: Common<number> & { minimum?: number; maximum?: number } = {}): WpArg<number> => ({ type: 'number', ...o }),
  boolean: (o: Common<boolean> = {}): WpArg<boolean> => ({ type: 'boolean', ...o }),
  string: (o: Common<string> = {}): WpArg<string> => ({ type: 'string', ...o }),
  enum: <V extends string>(values: readonly V[], o: Common<V> = {}): WpArg<V> => ({ type: 'string', enum: values, ...o }),
  /** A list (CSV or repeated values) of integers or strings. */
  list: <S extends 'integer' | 'string'>(
    of: S,
    o: Common<Array<S extends 'integer' ? number : string>> & { enum?: readonly string[] } = {},
  ): WpArg<Array<S extends 'integer' ? number : string>> => {
    const { enum: values, ...rest } = o;
    return { type: 'array', items: { type: of, ...(values ? { enum: values } : {}) }, ...rest };
  },
  object: (o: Common<Record<string, unknown>> = {}): WpArg<Record<string, unknown>> => ({ type: 'object', ...o }),
  /** An untyped argument: the value as sent. */
  any: (o: Common<unknown> = {}): WpArg<unknown> => ({ ...o }),
  /** `{id}` in the path: digits only (`\d+`), else the route does not match (404 rest_no_route). */
  pathId: (o: Pick<WpArg<number>, 'description' | 'field' | 'validate'> = {}): WpArg<number> => ({ type: 'integer', path: 'integer', required: true, ...o }),
  /** `{slug}` in the path (`[^/]+`). */
  pathSlug: (o: Pick<WpArg<string>, 'description' | 'field' | 'validate'> = {}): WpArg<string> => ({ type: 'string', path: 'slug', required: true, ...o }),
};

/**
 * The path arguments of the calendar's routes, declared once for the family (WordPress' own wording): `{id}` and
 * `{slug}` mean the same on every route, only the collection differs.
 */
export const PATH_ID = wp.pathId({ description: 'Unique identifier for the object.' });
export const PATH_SLUG = wp.pathSlug({ description: 'An alphanumeric identifier for the object unique to its type.' });

/** The argument every WordPress-family endpoint accepts (query or body): the content language. */
export const LANGUAGE_ARG: WpArg<Language> = {
  type: 'string',
  description: 'The language of the content and messages (da, en, fr or de); absent: the original language.',
  enum: LANGUAGES,
  required: false,
};
export const LANGUAGE_ARG_NAME = 'i18n_language';

/** One answer for every argument problem of a request (see the module comment). */
export class WpParamsError extends ValidationError {
  constructor(
    readonly kind: 'missing' | 'invalid',
    /** missing: the names; invalid: name -> problem (undefined problem = "Invalid parameter." without details). */
    readonly problems: Array<{ name: string; problem?: WpArgProblem }>,
  ) {
    const names = problems.map((p) => p.name);
    super(catalogMessage(kind === 'missing' ? 'rest_missing_callback_param' : 'rest_invalid_param', [names.join(', ')])!, {
      domainCode: kind === 'missing' ? 'rest_missing_callback_param' : 'rest_invalid_param',
      fieldErrors: problems.map((p) => ({
        field: p.name,
        code: kind === 'missing' ? 'missing_field' : (p.problem?.code ?? 'invalid'),
        message: p.problem ? problemText(p.problem) : catalogMessage('invalid_parameter')!,
      })),
    });
  }
}

export function problemText(p: WpArgProblem, language?: Language): string {
  return 'text' in p.message ? p.message.text : catalogMessage(p.message.id, p.message.args, language)!;
}

// ---------------------------------------------------------------------------------------------------------
// Type checks (rest_validate_value_from_schema + rest_sanitize_value_from_schema).

const PHP_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

function isNumeric(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  return typeof v === 'string' && PHP_NUMERIC.test(v) && Number.isFinite(Number(v));
}

const typeError = (name: string, type: string): WpArgProblem => ({
  code: 'rest_invalid_type',
  message: { id: 'rest_invalid_type', args: [name, type] },
  data: { param: name },
});

type Checked = { ok: true; value: unknown } | { ok: false; problem: WpArgProblem };

function checkEnum(name: string, value: unknown, values: readonly (string | number)[]): WpArgProblem | undefined {
  if (values.some((v) => v === value || String(v) === String(value))) return undefined;
  if (values.length === 1) return { code: 'rest_not_in_enum', message: { id: 'rest_not_in_enum_single', args: [name, String(values[0])] }, data: null };
  return { code: 'rest_not_in_enum', message: { id: 'rest_not_in_enum', args: [name, values.map(String)] }, data: null };
}

function checkBounds(name: string, n: number, min?: number, max?: number): WpArgProblem | undefined {
  if (min !== undefined && max !== undefined && (n < min || n > max)) {
    return { code: 'rest_out_of_bounds', message: { id: 'rest_out_of_bounds_between', args: [name, min, max] }, data: null };
  }
  if (min !== undefined && max === undefined && n < min) return { code: 'rest_out_of_bounds', message: { id: 'rest_out_of_bounds_min', args: [name, min] }, data: null };
  if (max !== undefined && min === undefined && n > max) return { code: 'rest_out_of_bounds', message: { id: 'rest_out_of_bounds_max', args: [name, max] }, data: null };
  return undefined;
}

/** "Invalid parameter." without details (WordPress' answer when a validator says no). */
const INVALID: WpArgProblem = { code: '', message: { id: 'invalid_parameter', args: [] }, data: undefined };

function checkScalar(
  name: string,
  value: unknown,
  type: WpScalarType,
  spec: { enum?: readonly (string | number)[]; minimum?: number; maximum?: number; pathId?: boolean },
): Checked {
  let out: unknown;
  switch (type) {
    case 'integer': {
      if (typeof value === 'boolean' || !isNumeric(value) || !Number.isInteger(Number(value))) return { ok: false, problem: typeError(name, 'integer') };
      out = Math.trunc(Number(value));
      if (!Number.isSafeInteger(out)) return { ok: false, problem: typeError(name, 'integer') };
      // Every integer the calendar stores or looks up is an int4 column: a larger value names nothing (and must
      // never reach PostgreSQL, which refuses it). Path ids are exempt: their routes answer "not found".
      if (!spec.pathId && ((out as number) > INT4_MAX || (out as number) < -INT4_MAX - 1)) return { ok: false, problem: INVALID };
      break;
    }
    case 'number': {
      if (typeof value === 'boolean' || !isNumeric(value)) return { ok: false, problem: typeError(name, 'number') };
      out = Number(value);
      break;
    }
    case 'boolean': {
      if (typeof value === 'boolean') out = value;
      else if (typeof value === 'string' && ['true', 'false', '1', '0'].includes(value.toLowerCase())) out = ['true', '1'].includes(value.toLowerCase());
      else if (value === 0 || value === 1) out = value === 1;
      else return { ok: false, problem: typeError(name, 'boolean') };
      break;
    }
    case 'string': {
      if (typeof value !== 'string') return { ok: false, problem: typeError(name, 'string') };
      // No text column can hold NUL (PostgreSQL refuses it): such a value is invalid, whatever it is for.
      if (value.includes('\u0000')) return { ok: false, problem: INVALID };
      out = value;
      break;
    }
  }
  if (spec.enum) {
    const p = checkEnum(name, out, spec.enum);
    if (p) return { ok: false, problem: p };
  }
  if (typeof out === 'number') {
    const p = checkBounds(name, out, spec.minimum, spec.maximum);
    if (p) return { ok: false, problem: p };
  }
  return { ok: true, value: out };
}

/** wp_parse_list: a scalar split at commas and whitespace, empties dropped. */
function parseList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return String(value === true ? '1' : value === false ? '' : value)
      .split(/[\s,]+/)
      .filter((s) => s !== '');
  }
  return undefined;
}

/** The typed value of one argument, or its problem. */
export function checkArg(name: string, value: unknown, arg: WpArg<any>): Checked {
  let checked: Checked;
  switch (arg.type) {
    case undefined:
      checked = { ok: true, value };
      break;
    case 'array': {
      const list = parseList(value);
      if (!list) return { ok: false, problem: typeError(name, 'array') };
      const out: unknown[] = [];
      for (let i = 0; i < list.length; i++) {
        const item = arg.items ? checkScalar(`${name}[${i}]`, list[i], arg.items.type, { enum: arg.items.enum }) : ({ ok: true, value: list[i] } as Checked);
        if (!item.ok) return item;
        out.push(item.value);
      }
      checked = { ok: true, value: out };
      break;
    }
    case 'object':
      checked = value !== null && typeof value === 'object' && !Array.isArray(value) ? { ok: true, value } : { ok: false, problem: typeError(name, 'object') };
      break;
    default:
      checked = checkScalar(name, value, arg.type, { ...arg, pathId: arg.path === 'integer' });
  }
  if (!checked.ok || !arg.validate) return checked;
  const verdict = arg.validate(checked.value, name);
  if (verdict === true) return checked;
  if (verdict === false) return { ok: false, problem: { code: '', message: { id: 'invalid_parameter', args: [] }, data: undefined } };
  return { ok: false, problem: verdict };
}

// ---------------------------------------------------------------------------------------------------------
// Reading a request.

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The raw value of `name` (undefined when absent; null counts as absent, as WordPress's isset). */
export function rawArg(req: Pick<RestRequest, 'method' | 'params' | 'query' | 'body'>, name: string, arg?: WpArg<any>): unknown {
  if (arg?.path) return req.params[name];
  if (Object.hasOwn(req.params, name)) return req.params[name];
  if (WRITE_METHODS.has(req.method) && req.body && typeof req.body === 'object' && !Array.isArray(req.body)) {
    const body = req.body as Record<string, unknown>;
    if (Object.hasOwn(body, name) && body[name] !== null && body[name] !== undefined) return body[name];
  }
  const q = req.query[name];
  if (q !== undefined) {
    if (!Array.isArray(q)) return q;
    // A repeated list argument collects every value (each may itself be a CSV); a scalar keeps the last (PHP).
    return arg?.type === 'array' ? q.flatMap((v) => v.split(/[\s,]+/)).filter((v) => v !== '') : q[q.length - 1];
  }
  const list = req.query[`${name}[]`];
  if (list !== undefined) return Array.isArray(list) ? list : [list];
  return undefined;
}

/** Check every argument of a request: the values (defaults filled in) or ONE WpParamsError. */
export function readWpArgs<A extends WpArgs>(req: Pick<RestRequest, 'method' | 'params' | 'query' | 'body'>, args: A): ArgValues<A> {
  const values: Record<string, unknown> = {};
  const missing: string[] = [];
  const invalid: Array<{ name: string; problem?: WpArgProblem }> = [];
  for (const [name, arg] of Object.entries(args)) {
    const raw = rawArg(req, name, arg);
    if (arg.path === 'integer' && (typeof raw !== 'string' || !/^\d+$/.test(raw))) {
      // WordPress's route regex is `(?P<id>\d+)`: anything else matches no route.
      throw new NotFoundError(CORE_MESSAGES.rest_no_route.en, { domainCode: 'rest_no_route' });
    }
    if (raw === undefined || raw === null) {
      if (arg.required) missing.push(name);
      else values[name] = arg.default;
      continue;
    }
    const checked = checkArg(name, raw, arg);
    if (checked.ok) values[name] = checked.value;
    else invalid.push({ name, problem: checked.problem.code === '' ? undefined : checked.problem });
  }
  if (missing.length) throw new WpParamsError('missing', missing.map((name) => ({ name })));
  if (invalid.length) throw new WpParamsError('invalid', invalid);
  return values as ArgValues<A>;
}

// ---------------------------------------------------------------------------------------------------------
// Rows.

/** A row built by wpRoute: it carries its argument declarations (the preHandler and the namespace index read them). */
export interface WpRestRoute<I = unknown, O = unknown> extends RestRoute<I, O> {
  readonly wpArgs: WpArgs;
}

/** The arguments a WordPress-family row declares (i18n_language included); rows not built by wpRoute: just that one. */
export function routeArgs(route: RestRoute<any, any>): WpArgs {
  return (route as Partial<WpRestRoute>).wpArgs ?? { [LANGUAGE_ARG_NAME]: LANGUAGE_ARG };
}

/**
 * The family's check of a request (its preHandler): the content language first (so the error answering the
 * other arguments speaks it), then every argument at once.
 */
export function prepareWordpressRequest(req: RestRequest, route: RestRoute<any, any>): void {
  const lang = rawArg(req, LANGUAGE_ARG_NAME);
  if (isLanguage(lang)) req.language = lang;
  // The query is bounded like a form body (the same count as PHP's max_input_vars).
  const q = req.target.indexOf('?');
  if (q >= 0) checkParamCount(req.target.slice(q + 1));
  // Kept on the request: the row's input() reads them (the values live and die with the request).
  req.args = readWpArgs(req, routeArgs(route));
}

/** The checked values of this request's arguments (computed by the preHandler, or now). */
export function argValues<A extends WpArgs>(req: RestRequest, args: A): ArgValues<A> {
  return (req.args as ArgValues<A> | undefined) ?? readWpArgs(req, args);
}

/** The JSON schema of an argument (OpenAPI and the route table's documents). */
export function argSchema(arg: WpArg<any>): Record<string, unknown> {
  const s: Record<string, unknown> = {};
  if (arg.type) s.type = arg.type;
  if (arg.items) s.items = { ...arg.items, ...(arg.items.enum ? { enum: [...arg.items.enum] } : {}) };
  if (arg.enum) s.enum = [...arg.enum];
  if (arg.format) s.format = arg.format;
  if (arg.minimum !== undefined) s.minimum = arg.minimum;
  if (arg.maximum !== undefined) s.maximum = arg.maximum;
  if (arg.default !== undefined) s.default = arg.default;
  if (arg.description !== undefined) s.description = arg.description;
  return s;
}

export interface WpRouteSpec<A extends WpArgs, I, O> {
  method: HttpMethod;
  /** Full path, OpenAPI style: /calendar/events/v1/events/{id}. */
  path: string;
  operationId: string;
  summary: string;
  tags?: string[];
  /** The arguments (path ones with wp.pathId / wp.pathSlug); i18n_language is added to every row. */
  args: A;
  responses?: RestRoute<I, O>['responses'];
  names?: Record<string, string>;
  /** Map the checked argument values (and the request) onto the service input; default: the values. */
  input?(args: ArgValues<A> & { i18n_language?: Language }, req: RestRequest, ctx: RequestContext): I | Promise<I>;
  handle(ctx: RequestContext, input: I): Promise<O>;
  present(result: O, ctx: RequestContext, req: RestRequest, input: I): RestResult | Promise<RestResult>;
}

/**
 * The documented parameter of an argument, and a declaration that reads the value too (checked as the row checks
 * it), like every REST parameter (src/rest/params.ts). One object per declaration and name.
 */
function paramSpecOf(name: string, arg: WpArg<any>): Param<unknown> {
  arg.documented ??= new Map();
  let spec = arg.documented.get(name);
  if (!spec) arg.documented.set(name, (spec = newParamSpec(name, arg)));
  return spec;
}

function newParamSpec(name: string, arg: WpArg<any>): Param<unknown> {
  return {
    name,
    in: arg.path ? 'path' : 'query',
    ...(arg.path || arg.required ? { required: true } : {}),
    description: arg.description,
    field: arg.field,
    schema: argSchema(arg),
    read: (req) => readWpArgs({ method: 'GET', params: req.params, query: req.query, body: undefined }, { [name]: arg })[name],
  };
}

/** A WordPress-family route row whose arguments are declared once (checked, documented, listed in the index). */
export function wpRoute<A extends WpArgs, I = ArgValues<A>, O = unknown>(spec: WpRouteSpec<A, I, O>): WpRestRoute<I, O> {
  const args: WpArgs = { ...spec.args };
  if (!Object.hasOwn(args, LANGUAGE_ARG_NAME)) args[LANGUAGE_ARG_NAME] = LANGUAGE_ARG;
  const writes = spec.method === 'POST' || spec.method === 'PUT' || spec.method === 'PATCH';
  const parameters: ParamSpec[] = [];
  const bodyProps: Record<string, unknown> = {};
  const bodyRequired: string[] = [];
  // Domain field -> argument name, for every argument (body ones are not `parameters`, so not renamed by them).
  const names: Record<string, string> = {};
  for (const [name, arg] of Object.entries(args)) {
    if (arg.field) names[arg.field] = name;
    if (!arg.path && writes && name !== LANGUAGE_ARG_NAME) {
      bodyProps[name] = argSchema(arg);
      if (arg.required) bodyRequired.push(name);
    } else parameters.push(paramSpecOf(name, arg));
  }
  return {
    family: 'wordpress',
    method: spec.method,
    path: spec.path,
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.tags ? { tags: spec.tags } : {}),
    parameters,
    ...(writes ? { requestBody: { type: 'object', properties: bodyProps, ...(bodyRequired.length ? { required: bodyRequired } : {}) } } : {}),
    ...(spec.responses ? { responses: spec.responses } : {}),
    ...(Object.keys(names).length || spec.names ? { names: { ...names, ...spec.names } } : {}),
    input: (req, ctx) => {
      const values = argValues(req, args) as ArgValues<A>;
      return spec.input ? spec.input(values, req, ctx) : (values as unknown as I);
    },
    handle: spec.handle,
    present: spec.present,
    wpArgs: args,
  };
}
