/**
 * One declaration per REST parameter: the same object reads the value from the request (decoded against the
 * type it must have, a family-style error otherwise) and documents it in OpenAPI (it IS the ParamSpec).
 *
 *   const perPage = q.int('per_page', { min: 1, max: 100, default: 30, description: '…' });
 *   parameters: [perPage, …]            // OpenAPI
 *   input: (req) => perPage.read(req)   // parsing
 *
 * Query conventions (GitHub's, which Octokit follows): a single-valued parameter given twice takes its last
 * value; comma lists accept `a,b` and repeated parameters, blanks ignored, duplicates dropped; booleans are
 * exactly `true` or `false`; integers are decimal and within the declared range (int4 at most).
 */
import { quoteInput, ValidationError } from '../errors/app-error';
import { INT4_MAX, parseInteger } from '../services/common/decode';
import type { ParamSpec, RestRequest } from './route-table';

export interface Param<T> extends ParamSpec {
  /** The value in this request (throws ValidationError when it has the wrong type). */
  read(req: Pick<RestRequest, 'params' | 'query' | 'headers'>): T;
}

interface Doc {
  description?: string;
  /** The domain field this parameter fills (see ParamSpec.field). */
  field?: string;
}

type Query = RestRequest['query'];

/** A single-valued query parameter (the last one when repeated); undefined when absent. */
function last(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** Builders of query parameters whose errors name `resource` (GitHub's `errors[].resource`). */
export function queryParams(resource: string) {
  const invalid = (name: string, message: string) =>
    new ValidationError(`Invalid request: ${message}`, { fieldErrors: [{ resource, field: name, code: 'invalid', message }] });

  return {
    invalid,

    /** A string; `nonEmpty`: an empty (or blank) value counts as absent. */
    string(name: string, doc: Doc & { nonEmpty?: boolean; schema?: Record<string, unknown> } = {}): Param<string | undefined> {
      return {
        name,
        in: 'query',
        description: doc.description,
        field: doc.field,
        schema: doc.schema ?? { type: 'string' },
        read: (req) => {
          const v = last(req.query, name);
          if (!doc.nonEmpty) return v;
          const t = v?.trim();
          return t ? t : undefined;
        },
      };
    },

    /** A comma-separated list (repeated parameters are joined); undefined when it names nothing. */
    csv(name: string, doc: Doc & { values?: readonly string[]; itemsDescription?: string } = {}): Param<string[] | undefined> {
      const what = doc.itemsDescription ?? 'Values.';
      return {
        name,
        in: 'query',
        description: doc.description,
        field: doc.field,
        schema: {
          type: 'string',
          description: doc.values ? `${what} Comma-separated; values: ${doc.values.join(', ')}.` : `${what} Comma-separated.`,
          ...(doc.values ? { example: doc.values.slice(0, 2).join(',') } : {}),
        },
        read: (req) => {
          const v = req.query[name];
          if (v === undefined) return undefined;
          const items = (Array.isArray(v) ? v : [v])
            .flatMap((s) => s.split(','))
            .map((s) => s.trim())
            .filter((s) => s !== '');
          return items.length ? [...new Set(items)] : undefined;
        },
      };
    },

    /** Exactly `true` or `false`; undefined (or `default`) when absent. */
    bool<D extends boolean | undefined = undefined>(name: string, doc: Doc & { default?: D } = {}): Param<D extends boolean ? boolean : boolean | undefined> {
      return {
        name,
        in: 'query',
        description: doc.description,
        field: doc.field,
        schema: { type: 'boolean', ...(doc.default !== undefined ? { default: doc.default } : {}) },
        read: (req) => {
          const v = last(req.query, name);
          if (v === undefined) return doc.default as never;
          if (v === 'true') return true as never;
          if (v === 'false') return false as never;
          throw invalid(name, `${quoteInput(v)} is not a valid value for ${name}; use true or false`);
        },
      };
    },

    /** A decimal integer within [min, max] (int4 at most); `default` when absent. */
    int(name: string, doc: Doc & { min: number; max?: number; default: number }): Param<number> {
      const max = doc.max ?? INT4_MAX;
      return {
        name,
        in: 'query',
        description: doc.description,
        field: doc.field,
        schema: { type: 'integer', minimum: doc.min, ...(doc.max !== undefined ? { maximum: doc.max } : {}), default: doc.default },
        read: (req) => {
          const v = last(req.query, name);
          if (v === undefined) return doc.default;
          const n = parseInteger(v, { min: doc.min, max });
          if (n === undefined) throw invalid(name, max === INT4_MAX ? `${name} must be a positive integer` : `${name} must be an integer from ${doc.min} to ${max}`);
          return n;
        },
      };
    },
  };
}

/** A path parameter (always present when the route matched); `decode` turns it into the type it must have. */
export function pathParam<T = string>(name: string, doc: Doc & { schema?: Record<string, unknown>; decode?: (raw: string) => T } = {}): Param<T> {
  return {
    name,
    in: 'path',
    required: true,
    description: doc.description,
    field: doc.field,
    schema: doc.schema ?? { type: 'string' },
    read: (req) => {
      const raw = req.params[name] ?? '';
      return doc.decode ? doc.decode(raw) : (raw as T);
    },
  };
}

/** A request header (its first value); documented, read as a string. */
export function headerParam(name: string, doc: Doc & { schema?: Record<string, unknown> } = {}): Param<string | undefined> {
  const key = name.toLowerCase();
  return {
    name,
    in: 'header',
    description: doc.description,
    field: doc.field,
    schema: doc.schema ?? { type: 'string' },
    read: (req) => {
      const v = req.headers[key];
      return Array.isArray(v) ? v[0] : v;
    },
  };
}

/**
 * The error field-name renaming of a route: a declared parameter's domain field -> its name, then the row's
 * own `names` (body members and the like), then the family's `fallback`.
 */
export function fieldRenamer(
  params: ParamSpec[] | undefined,
  fallback: (field: string) => string,
  names: Record<string, string> = {},
): (field: string) => string {
  const map = new Map<string, string>(Object.entries(names));
  for (const p of params ?? []) if (p.field) map.set(p.field, p.name);
  return (field) => map.get(field) ?? fallback(field);
}
