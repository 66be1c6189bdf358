/**
 * WordPress REST namespaces served by the gateway, and the two rows the family derives for each one from the
 * domain's rows (never written by hand):
 *  - `GET /<namespace>`: WordPress core's namespace index (WP_REST_Server::get_namespace_index): every route of
 *    the namespace keyed by its WordPress regex (`/calendar/events/v1/events/(?P<id>\d+)`), its methods and
 *    endpoints `{methods, args}` (rows of one path with the same arguments merged into one endpoint, e.g.
 *    POST/PUT/PATCH), `_links.self` on routes without path parameters; `namespace` (default: this one; an
 *    unknown one -> 404 rest_invalid_namespace) and `context` arguments as WordPress declares them.
 *  - `GET /<namespace>/doc`: The Events Calendar's OpenAPI 3.0.0 document of the same rows, paths relative to
 *    `servers[0].url` (PUBLIC_URL + /<namespace>), component schemas registered by the domain.
 * A domain registers its namespace's OpenAPI schemas with registerNamespaceSchemas().
 */
import { NotFoundError } from '../../errors/app-error';
import type { RestRoute } from '../route-table';
import { CORE_MESSAGES } from './messages';
import { argSchema, routeArgs, wp, WpArg, wpRoute } from './params';

export interface WordpressNamespace {
  /** e.g. `calendar/events/v1`; served at `/<namespace>`. */
  namespace: string;
  /** The /doc document's info. */
  title: string;
  version: string;
  description: string;
  /** components.schemas of the /doc document (filled by the domain). */
  schemas: Record<string, object>;
}

const NAMESPACES = new Map<string, WordpressNamespace>();

export function registerWordpressNamespace(ns: WordpressNamespace): WordpressNamespace {
  if (!/^[a-z0-9-]+(\/[a-z0-9-]+)+$/.test(ns.namespace)) throw new Error(`wordpress: invalid namespace '${ns.namespace}'`);
  NAMESPACES.set(ns.namespace, ns);
  return ns;
}

/** Add (or replace) named schemas of a namespace's /doc document (`#/components/schemas/<name>`). */
export function registerNamespaceSchemas(namespace: string, schemas: Record<string, object>): void {
  const ns = NAMESPACES.get(namespace);
  if (!ns) throw new Error(`wordpress: unknown namespace '${namespace}'`);
  Object.assign(ns.schemas, schemas);
}

/** The events calendar (The Events Calendar's `tribe/events/v1`, with `calendar` for the vendor word). */
export const CALENDAR_NAMESPACE = registerWordpressNamespace({
  namespace: 'calendar/events/v1',
  title: 'The Events Calendar REST API',
  version: '1.0.0',
  description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
  schemas: {},
});

const basePath = (ns: WordpressNamespace) => `/${ns.namespace}`;

function under(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/** `/calendar/events/v1/events/{id}` -> `/calendar/events/v1/events/(?P<id>\d+)` (from the path argument's kind). */
export function wordpressRouteKey(route: RestRoute<any, any>): string {
  const args = routeArgs(route);
  return route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => `(?P<${name}>${args[name]?.path === 'integer' ? '\\d+' : '[^/]+'})`);
}

/** An argument as the index lists it (WordPress: the schema keywords it declares, and `required`). */
function indexArg(arg: WpArg<any>): Record<string, unknown> {
  const s = argSchema(arg);
  const { description, type, default: dflt, enum: values, items, ...rest } = s;
  return {
    required: Boolean(arg.required),
    ...(description !== undefined ? { description } : {}),
    ...(type !== undefined ? { type } : {}),
    ...(dflt !== undefined ? { default: dflt } : {}),
    ...(values !== undefined ? { enum: values } : {}),
    ...(items !== undefined ? { items } : {}),
    ...rest,
  };
}

/** The namespace index body (WP_REST_Server::get_namespace_index). */
export function buildNamespaceIndex(routes: RestRoute<any, any>[], ns: WordpressNamespace, publicUrl: string): Record<string, unknown> {
  const root = publicUrl.replace(/\/+$/, '');
  const base = basePath(ns);
  const rows = routes.filter((r) => r.family === 'wordpress' && under(r.path, base));
  // The index route first, then /doc, then the others in table order.
  const rank = (r: RestRoute<any, any>) => (r.path === base ? 0 : r.path === `${base}/doc` ? 1 : 2);
  const ordered = rows.map((r, i) => [r, i] as const).sort(([a, i], [b, j]) => rank(a) - rank(b) || i - j).map(([r]) => r);
  const byKey = new Map<string, RestRoute<any, any>[]>();
  for (const r of ordered) {
    const key = wordpressRouteKey(r);
    byKey.set(key, [...(byKey.get(key) ?? []), r]);
  }
  const out: Record<string, unknown> = {};
  for (const [key, group] of byKey) {
    const endpoints: Array<{ methods: string[]; args: Record<string, unknown>; sig: string }> = [];
    for (const r of group) {
      const args = Object.fromEntries(Object.entries(routeArgs(r)).map(([name, a]) => [name, indexArg(a)]));
      const sig = JSON.stringify(args);
      const same = endpoints.find((e) => e.sig === sig);
      if (same) same.methods.push(r.method);
      else endpoints.push({ methods: [r.method], args, sig });
    }
    out[key] = {
      namespace: ns.namespace,
      methods: endpoints.flatMap((e) => e.methods),
      endpoints: endpoints.map(({ methods, args }) => ({ methods, args })),
      ...(key.includes('(?P<') ? {} : { _links: { self: [{ href: `${root}${key}` }] } }),
    };
  }
  return { namespace: ns.namespace, routes: out, _links: { up: [{ href: `${root}/` }] } };
}

// ---------------------------------------------------------------------------------------------------------
// /doc: OpenAPI 3.0.0.

const WP_ERROR_SCHEMA = {
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    data: { type: 'object', properties: { status: { type: 'integer' } } },
  },
};

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

function collectRefs(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) collectRefs(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.add(v);
      else collectRefs(v, out);
    }
  }
}

/** The OpenAPI 3.0.0 document of a namespace's rows (The Events Calendar's /doc). */
export function buildNamespaceDoc(routes: RestRoute<any, any>[], ns: WordpressNamespace, publicUrl: string): Record<string, unknown> {
  const base = basePath(ns);
  const paths: Record<string, Record<string, unknown>> = {};
  // /doc first (as The Events Calendar's document has it), then the table's order.
  const rows = routes.filter((r) => r.family === 'wordpress' && under(r.path, base) && r.path !== base);
  const ordered = [...rows.filter((r) => r.path === `${base}/doc`), ...rows.filter((r) => r.path !== `${base}/doc`)];
  for (const r of ordered) {
    const rel = r.path.slice(base.length) || '/';
    const args = routeArgs(r);
    const writes = r.method === 'POST' || r.method === 'PUT' || r.method === 'PATCH';
    const parameters: Record<string, unknown>[] = [];
    const bodyProps: Record<string, unknown> = {};
    const bodyRequired: string[] = [];
    for (const [name, arg] of Object.entries(args)) {
      const { description, default: _d, ...schema } = argSchema(arg);
      if (arg.default !== undefined) schema.default = arg.default;
      if (!arg.path && writes && name !== 'i18n_language') {
        bodyProps[name] = { ...schema, ...(description !== undefined ? { description } : {}) };
        if (arg.required) bodyRequired.push(name);
        continue;
      }
      parameters.push({
        name,
        in: arg.path ? 'path' : 'query',
        ...(description !== undefined ? { description } : {}),
        schema,
        required: Boolean(arg.path || arg.required),
        ...(arg.type === 'array' ? { style: 'form', explode: false } : {}),
      });
    }
    const responses: Record<string, unknown> = {};
    for (const [status, spec] of Object.entries(r.responses ?? {})) {
      responses[status] = { description: spec.description, ...(spec.schema ? { content: { [JSON_TYPE]: { schema: spec.schema } } } : {}) };
    }
    if (!Object.keys(responses).some((s) => /^2/.test(s))) responses['200'] = { description: 'Success' };
    responses.default = { description: 'A WordPress REST error: { code, message, data: { status } }', content: { [JSON_TYPE]: { schema: WP_ERROR_SCHEMA } } };
    const bodySchema = { type: 'object', properties: bodyProps, ...(bodyRequired.length ? { required: bodyRequired } : {}) };
    const item = (paths[rel] ??= {});
    item[r.method.toLowerCase()] = {
      operationId: r.operationId,
      summary: r.summary,
      ...(r.tags?.length ? { tags: r.tags } : {}),
      parameters,
      ...(writes && Object.keys(bodyProps).length
        ? { requestBody: { required: bodyRequired.length > 0, content: { [JSON_TYPE]: { schema: bodySchema }, [FORM_TYPE]: { schema: bodySchema } } } }
        : {}),
      responses,
    };
  }
  const refs = new Set<string>();
  collectRefs(paths, refs);
  collectRefs(ns.schemas, refs);
  for (const ref of refs) {
    const name = ref.replace(/^#\/components\/schemas\//, '');
    if (name === ref || !Object.hasOwn(ns.schemas, name)) throw new Error(`wordpress /doc: $ref '${ref}' names no registered schema of ${ns.namespace}`);
  }
  return {
    openapi: '3.0.0',
    info: { version: ns.version, title: ns.title, description: ns.description },
    components: { schemas: ns.schemas },
    servers: [{ url: `${publicUrl.replace(/\/+$/, '')}${base}` }],
    paths,
  };
}

/**
 * The rows the family derives: for each registered namespace that has rows, its index and its /doc (unless
 * the domain serves them itself). Their answers are computed from `routes` plus these rows.
 */
export function namespaceRoutes(routes: RestRoute<any, any>[]): RestRoute<any, any>[] {
  const extra: RestRoute<any, any>[] = [];
  let all: RestRoute<any, any>[] = routes;
  for (const ns of NAMESPACES.values()) {
    const base = basePath(ns);
    const own = routes.filter((r) => r.family === 'wordpress' && under(r.path, base));
    if (!own.length) continue;
    const has = (path: string) => own.some((r) => r.method === 'GET' && r.path === path);
    if (!has(base)) {
      extra.push(
        wpRoute({
          method: 'GET',
          path: base,
          operationId: `${ns.namespace}/index`,
          summary: `The ${ns.namespace} namespace index: its routes, methods and arguments`,
          args: { namespace: wp.any({ default: ns.namespace }), context: wp.any({ default: 'view' }) },
          handle: async (ctx, input) => {
            const wanted = typeof input.namespace === 'string' ? NAMESPACES.get(input.namespace) : undefined;
            if (!wanted || !all.some((r) => r.family === 'wordpress' && under(r.path, basePath(wanted)))) {
              throw new NotFoundError(CORE_MESSAGES.rest_invalid_namespace.en, { domainCode: 'rest_invalid_namespace' });
            }
            return buildNamespaceIndex(all, wanted, ctx.config.publicUrl);
          },
          present: (body) => ({ body }),
        }),
      );
    }
    if (!has(`${base}/doc`)) {
      let cached: { url: string; doc: Record<string, unknown> } | undefined;
      extra.push(
        wpRoute({
          method: 'GET',
          path: `${base}/doc`,
          operationId: `${ns.namespace}/doc`,
          summary: 'The OpenAPI 3.0 document of this API',
          args: {},
          handle: async (ctx) => {
            if (cached?.url !== ctx.config.publicUrl) cached = { url: ctx.config.publicUrl, doc: buildNamespaceDoc(all, ns, ctx.config.publicUrl) };
            return cached.doc;
          },
          present: (body) => ({ body }),
        }),
      );
    }
  }
  all = [...routes, ...extra];
  return extra;
}
