/**
 * OpenAPI 3.0.3 documents generated from the REST route table (never written by hand): one path item per
 * documented path, one operation per row. Path parameters come from the `{name}` segments of the path
 * (a row may describe them; undeclared ones are added as required strings), request bodies are JSON, and
 * every operation gets its family's standard error responses, whose bodies are shared component schemas:
 *  - github:    basic-error `{ message, documentation_url, status }` and validation-error (`errors[]`, 422)
 *  - wordpress: wordpress-error `{ code, message, data: { status } }`
 *  - aws:       aws-error `{ __type, message }` (awsJson1_0; all client errors are 400)
 * Named schemas a row refers to with `{ $ref: '#/components/schemas/X' }` come from `opts.schemas`; only the
 * ones the selected operations use (directly or through other schemas) are emitted, and an unknown name is
 * an error at build time, so a generated document never holds a dangling `$ref`.
 */
import type { FastifyInstance } from 'fastify';
import type { OpenApiDocumentSpec, OpenApiSecurityScheme, RestFamily } from './family';
import { FAMILIES } from './families';
import type { Family, ParamSpec, RestRoute } from './route-table';

// ---------------------------------------------------------------------------------------------------------
// A minimal, local OpenAPI 3.0 model (only what the generator emits).

export type JsonSchema = Record<string, unknown>;

export interface OpenAPIV3Reference {
  $ref: string;
}

export interface OpenAPIV3Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenAPIV3MediaType {
  schema?: JsonSchema;
}

export interface OpenAPIV3Header {
  description?: string;
  schema: JsonSchema;
}

export interface OpenAPIV3Response {
  description: string;
  headers?: Record<string, OpenAPIV3Header>;
  content?: Record<string, OpenAPIV3MediaType>;
}

export interface OpenAPIV3RequestBody {
  description?: string;
  required?: boolean;
  content: Record<string, OpenAPIV3MediaType>;
}

export type OpenAPIV3SecurityRequirement = Record<string, string[]>;

export interface OpenAPIV3Operation {
  operationId: string;
  summary: string;
  tags?: string[];
  parameters?: OpenAPIV3Parameter[];
  requestBody?: OpenAPIV3RequestBody;
  responses: Record<string, OpenAPIV3Response>;
  security?: OpenAPIV3SecurityRequirement[];
}

export type OpenAPIV3Method = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
export type OpenAPIV3PathItem = Partial<Record<OpenAPIV3Method, OpenAPIV3Operation>>;

export type OpenAPIV3SecurityScheme = OpenApiSecurityScheme;

export interface OpenAPIV3Document {
  openapi: '3.0.3';
  info: { title: string; version: string; description?: string };
  servers: { url: string; description?: string }[];
  tags?: { name: string }[];
  paths: Record<string, OpenAPIV3PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes?: Record<string, OpenAPIV3SecurityScheme>;
  };
}

export interface BuildOpenApiOptions {
  title: string;
  version: string;
  description?: string;
  serverUrl: string;
  /** Only rows of this family. */
  family?: Family;
  /** Only rows whose path is this prefix or lies below it (segment-wise: `/repos` does not match `/reposx`). */
  pathPrefix?: string;
  /** Only rows for which this returns true (combined with `family` and `pathPrefix`). */
  pathFilter?: (path: string, route: RestRoute<any, any>) => boolean;
  /** Named schemas rows may refer to as `{ $ref: '#/components/schemas/<name>' }`. */
  schemas?: Record<string, object>;
}

// ---------------------------------------------------------------------------------------------------------
// Family conventions come from the family adapters (src/rest/<family>/family.ts).

const SCHEMA_REF_PREFIX = '#/components/schemas/';
const schemaRef = (name: string): JsonSchema & OpenAPIV3Reference => ({ $ref: `${SCHEMA_REF_PREFIX}${name}` });

/** The error body schemas of each family, by component name. */
export const FAMILY_ERROR_SCHEMAS: Record<Family, Record<string, JsonSchema>> = Object.fromEntries(
  Object.values(FAMILIES).map((f) => [f.name, f.openapi.errorSchemas]),
) as Record<Family, Record<string, JsonSchema>>;

/**
 * The key of a row in `paths`: its path, or for a row keyed by operation (several rows share one path, told
 * apart by a header such as X-Amz-Target) `<path>#<operation>`, the form AWS's own OpenAPI exports use.
 */
export function openApiPathKey(r: Pick<RestRoute<any, any>, 'path' | 'operation'>): string {
  return r.operation ? `${r.path}#${r.operation}` : r.path;
}

// ---------------------------------------------------------------------------------------------------------
// Generation.

const PATH_TEMPLATE_RE = /\{([A-Za-z0-9_]+)\}/g;

export function pathTemplateParams(path: string): string[] {
  return [...path.matchAll(PATH_TEMPLATE_RE)].map((m) => m[1]);
}

function underPrefix(path: string, prefix: string): boolean {
  if (prefix === '' || prefix === '/') return true;
  const p = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return path === p || path.startsWith(`${p}/`);
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** Every `#/components/schemas/<name>` the value refers to (other `$ref`s are returned as-is). */
function collectRefs(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.add(v);
      else collectRefs(v, out);
    }
  }
}

function buildParameters(r: RestRoute<any, any>): OpenAPIV3Parameter[] {
  const declared = r.parameters ?? [];
  const templated = pathTemplateParams(r.path);
  const where = `${r.method} ${r.path} (${r.operationId})`;
  const seen = new Set<string>();
  for (const p of declared) {
    const key = `${p.in}:${p.name}`;
    if (seen.has(key)) throw new Error(`openapi: ${where} declares the ${p.in} parameter '${p.name}' twice`);
    seen.add(key);
    if (p.in === 'path' && !templated.includes(p.name)) {
      throw new Error(`openapi: ${where} declares the path parameter '${p.name}' but the path has no {${p.name}}`);
    }
  }
  const toParam = (p: ParamSpec): OpenAPIV3Parameter => ({
    name: p.name,
    in: p.in,
    ...(p.in === 'path' ? { required: true } : p.required !== undefined ? { required: p.required } : {}),
    ...(p.description !== undefined ? { description: p.description } : {}),
    schema: clone(p.schema),
  });
  const pathParams = templated.map((name) => {
    const d = declared.find((p) => p.in === 'path' && p.name === name);
    return d ? toParam(d) : { name, in: 'path' as const, required: true, schema: { type: 'string' } };
  });
  const family = FAMILIES[r.family];
  const operation: OpenAPIV3Parameter[] =
    r.operation && family.operationHeader
      ? [{ name: headerDisplayName(family.operationHeader), in: 'header', required: true, description: 'The operation.', schema: { type: 'string', enum: [r.operation] } }]
      : [];
  return [...pathParams, ...operation, ...declared.filter((p) => p.in !== 'path').map(toParam)];
}

/** `x-amz-target` -> `X-Amz-Target`. */
function headerDisplayName(lower: string): string {
  return lower.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

function buildResponses(r: RestRoute<any, any>): Record<string, OpenAPIV3Response> {
  const family = FAMILIES[r.family].openapi;
  const mediaType = family.responseMediaType;
  const errorResponse = (status: string, description: string, schema?: JsonSchema): OpenAPIV3Response => ({
    description,
    ...(family.errorHeaders ? { headers: clone(family.errorHeaders) } : {}),
    content: { [mediaType]: { schema: schema ? clone(schema) : schemaRef(family.errorSchemaFor(status)) } },
  });
  const out: Record<string, OpenAPIV3Response> = {};
  const own = r.responses ?? {};
  for (const [status, spec] of Object.entries(own)) {
    if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) {
      throw new Error(`openapi: ${r.method} ${r.path} (${r.operationId}) has an invalid response status '${status}'`);
    }
    const isError = status === 'default' || /^[45]/.test(status);
    if (isError) out[status] = errorResponse(status, spec.description, spec.schema);
    else if (spec.mediaType) out[status] = { description: spec.description, content: { [spec.mediaType.split(';')[0].trim()]: { schema: spec.schema ? clone(spec.schema) : { type: 'string' } } } };
    else out[status] = { description: spec.description, ...(spec.schema ? { content: { [mediaType]: { schema: clone(spec.schema) } } } : {}) };
  }
  if (!Object.keys(out).some((s) => /^[23]/.test(s))) {
    out['200'] = { description: 'Success' };
  }
  for (const [status, description] of Object.entries(family.standardErrors)) {
    if (!Object.hasOwn(out, status)) out[status] = errorResponse(status, description);
  }
  // Status codes in ascending order, `default` last.
  const order = (s: string) => (s === 'default' ? 1000 : Number.parseInt(s.replace(/X/g, '0'), 10));
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => order(a) - order(b)));
}

function buildRequestBody(r: RestRoute<any, any>): OpenAPIV3RequestBody | undefined {
  if (!r.requestBody) return undefined;
  const schema = clone(r.requestBody);
  const required = Array.isArray(schema.required) && schema.required.length > 0;
  const content: Record<string, OpenAPIV3MediaType> = Object.fromEntries(
    FAMILIES[r.family].openapi.requestMediaTypes.map((t) => [t, { schema: clone(schema) }]),
  );
  return { required, content };
}

/**
 * Security: a row that documents a 401 answer needs a credential; the others accept one (anonymous access
 * is allowed, `{}`), as GitHub's public reads do.
 */
function buildSecurity(r: RestRoute<any, any>): OpenAPIV3SecurityRequirement[] {
  const [name] = FAMILIES[r.family].openapi.securityScheme;
  return r.responses?.['401'] ? [{ [name]: [] }] : [{ [name]: [] }, {}];
}

/** Generate the OpenAPI 3.0.3 document of the selected route-table rows. */
export function buildOpenApi(routes: RestRoute<any, any>[], opts: BuildOpenApiOptions): OpenAPIV3Document {
  const selected = routes.filter(
    (r) =>
      (opts.family === undefined || r.family === opts.family) &&
      (opts.pathPrefix === undefined || underPrefix(r.path, opts.pathPrefix)) &&
      (opts.pathFilter === undefined || opts.pathFilter(r.path, r)),
  );

  const paths: Record<string, OpenAPIV3PathItem> = {};
  const operationIds = new Set<string>();
  const tags = new Set<string>();
  const families = new Set<Family>(opts.family ? [opts.family] : []);
  for (const r of selected) {
    if (operationIds.has(r.operationId)) throw new Error(`openapi: duplicate operationId '${r.operationId}'`);
    operationIds.add(r.operationId);
    const method = r.method.toLowerCase() as OpenAPIV3Method;
    if (r.operation && !FAMILIES[r.family].operationHeader) {
      throw new Error(`openapi: ${r.operationId} names an operation but the ${r.family} family routes by path`);
    }
    const key = openApiPathKey(r);
    const item = (paths[key] ??= {});
    if (item[method]) throw new Error(`openapi: two rows for ${r.method} ${key}`);
    families.add(r.family);
    for (const t of r.tags ?? []) tags.add(t);
    const parameters = buildParameters(r);
    const requestBody = buildRequestBody(r);
    item[method] = {
      operationId: r.operationId,
      summary: r.summary,
      ...(r.tags?.length ? { tags: [...r.tags] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: buildResponses(r),
      security: buildSecurity(r),
    };
  }

  // Component schemas: the families' error bodies plus every named schema reachable from the operations.
  const familyList = (Object.keys(FAMILIES) as Family[]).filter((f) => families.has(f));
  const builtIn: Record<string, JsonSchema> = Object.assign({}, ...familyList.map((f) => FAMILY_ERROR_SCHEMAS[f]));
  const reserved = new Set(Object.values(FAMILY_ERROR_SCHEMAS).flatMap((s) => Object.keys(s)));
  const registry = opts.schemas ?? {};
  for (const name of Object.keys(registry)) {
    if (reserved.has(name)) throw new Error(`openapi: the schema name '${name}' is reserved for a family error body`);
    if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`openapi: invalid component schema name '${name}'`);
  }
  const schemas: Record<string, JsonSchema> = clone(builtIn);
  const pending = new Set<string>();
  collectRefs(paths, pending);
  collectRefs(schemas, pending);
  const done = new Set<string>();
  while (pending.size) {
    const [ref] = pending;
    pending.delete(ref);
    if (done.has(ref)) continue;
    done.add(ref);
    if (!ref.startsWith(SCHEMA_REF_PREFIX)) throw new Error(`openapi: unsupported $ref '${ref}' (only ${SCHEMA_REF_PREFIX}<name>)`);
    const name = ref.slice(SCHEMA_REF_PREFIX.length);
    if (Object.hasOwn(schemas, name)) continue;
    const errorBody = Object.values(FAMILY_ERROR_SCHEMAS).find((s) => Object.hasOwn(s, name))?.[name];
    if (errorBody) {
      schemas[name] = clone(errorBody);
      continue;
    }
    const schema = Object.hasOwn(registry, name) ? registry[name] : undefined;
    if (!schema) throw new Error(`openapi: $ref '${ref}' names no schema (pass it in opts.schemas)`);
    schemas[name] = clone(schema) as JsonSchema;
    collectRefs(schemas[name], pending);
  }

  const securitySchemes: Record<string, OpenAPIV3SecurityScheme> = {};
  for (const f of familyList) {
    const [name, scheme] = FAMILIES[f].openapi.securityScheme;
    securitySchemes[name] = clone(scheme);
  }

  return {
    openapi: '3.0.3',
    info: { title: opts.title, version: opts.version, ...(opts.description !== undefined ? { description: opts.description } : {}) },
    servers: [{ url: opts.serverUrl }],
    ...(tags.size ? { tags: [...tags].sort().map((name) => ({ name })) } : {}),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      ...(familyList.length ? { securitySchemes } : {}),
    },
  };
}

/**
 * Serve a generated document as JSON at `url` (GET, and HEAD through Fastify). The document is built on the
 * first request and the serialized JSON is reused afterwards; a build that throws is retried next time.
 */
export function registerOpenApiRoute(app: FastifyInstance, url: string, build: () => object): void {
  let cached: string | undefined;
  app.get(url, async (_req, reply) => {
    cached ??= JSON.stringify(build());
    return reply.type('application/json; charset=utf-8').send(cached);
  });
}

/** The OpenAPI document `doc` of `family`, built from the rows of `routes` it includes. */
export function buildFamilyDocument(routes: RestRoute<any, any>[], family: RestFamily, doc: OpenApiDocumentSpec, serverUrl: string): OpenAPIV3Document {
  return buildOpenApi(routes, {
    title: doc.title,
    version: doc.version,
    description: doc.description,
    serverUrl,
    family: family.name,
    pathFilter: (_path, r) => doc.includes(r),
    schemas: doc.schemas as Record<string, object>,
  });
}

/**
 * Serve every OpenAPI document every family declares, and those the modules declare over one family's rows
 * (e.g. GET /openapi/secret-scanning.json). A document is built on first request, so `config.publicUrl` (which
 * may learn its port only at listen time) is read then.
 */
export function registerOpenApiDocuments(
  app: FastifyInstance,
  config: { publicUrl: string },
  routes: RestRoute<any, any>[],
  moduleDocuments: readonly (OpenApiDocumentSpec & { family: Family })[] = [],
): void {
  for (const family of Object.values(FAMILIES)) {
    for (const doc of family.documents) registerOpenApiRoute(app, doc.url, () => buildFamilyDocument(routes, family, doc, config.publicUrl));
  }
  for (const doc of moduleDocuments) {
    const family = FAMILIES[doc.family];
    registerOpenApiRoute(app, doc.url, () => buildFamilyDocument(routes, family, doc, config.publicUrl));
  }
}
