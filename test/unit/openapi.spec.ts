import Fastify, { FastifyInstance } from 'fastify';
import { buildOpenApi, BuildOpenApiOptions, OpenAPIV3Document, registerOpenApiRoute } from '../../src/rest/openapi';
import { route, RestRoute } from '../../src/rest/route-table';
import { isSecretScanningPath, SECRET_SCANNING_SCHEMAS } from '../../src/rest/github/secret-scanning.routes';
import { REST_ROUTES } from '../../src/rest/routes';

/** The real table without its secret scanning rows (the synthetic rows below reuse their operationIds). */
// The GitHub family's rows (the calendar's WordPress rows have their own /doc document, tested with them).
const GITHUB_ROUTES = REST_ROUTES.filter((r) => r.family === 'github');
const OTHER_ROUTES = GITHUB_ROUTES.filter((r) => !isSecretScanningPath(r.path));

const OPTS: BuildOpenApiOptions = { title: 'Gateway REST API', version: '1.0.0', serverUrl: 'https://api.example.test' };
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function noop<I, O>(): Pick<RestRoute<I, O>, 'input' | 'handle' | 'present'> {
  return {
    input: () => undefined as I,
    handle: async () => undefined as O,
    present: () => ({ body: {} }),
  };
}

/** Synthetic rows: a GitHub org list (query params), a repo get (declares only one of its path params), a PATCH with a body. */
const secretScanningRows: RestRoute<any, any>[] = [
  route({
    family: 'github',
    method: 'GET',
    path: '/orgs/{org}/secret-scanning/alerts',
    operationId: 'secret-scanning/list-alerts-for-org',
    summary: 'List secret scanning alerts for an organization',
    tags: ['secret-scanning'],
    parameters: [
      { name: 'state', in: 'query', description: 'open or resolved', schema: { type: 'string', enum: ['open', 'resolved'] } },
      { name: 'per_page', in: 'query', schema: { type: 'integer', default: 30 } },
    ],
    responses: {
      '200': { description: 'Alerts', schema: { type: 'array', items: { $ref: '#/components/schemas/secret-scanning-alert' } } },
      '404': { description: 'Organization not found' },
    },
    ...noop(),
  }),
  route({
    family: 'github',
    method: 'GET',
    path: '/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}',
    operationId: 'secret-scanning/get-alert',
    summary: 'Get a secret scanning alert',
    tags: ['secret-scanning'],
    parameters: [{ name: 'alert_number', in: 'path', description: 'The number of the alert.', schema: { type: 'integer' } }],
    responses: { '200': { description: 'The alert', schema: { $ref: '#/components/schemas/secret-scanning-alert' } } },
    ...noop(),
  }),
  route({
    family: 'github',
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}',
    operationId: 'secret-scanning/update-alert',
    summary: 'Update a secret scanning alert',
    tags: ['secret-scanning'],
    requestBody: {
      type: 'object',
      required: ['state'],
      properties: { state: { type: 'string', enum: ['open', 'resolved'] }, resolution: { $ref: '#/components/schemas/resolution' } },
    },
    responses: {
      '200': { description: 'The updated alert', schema: { $ref: '#/components/schemas/secret-scanning-alert' } },
      '401': { description: 'Requires authentication' },
      '422': { description: 'State does not match the resolution' },
    },
    ...noop(),
  }),
];

const wordpressRow = route({
  family: 'wordpress',
  method: 'POST',
  path: '/calendar/v1/events',
  operationId: 'tribe/create-event',
  summary: 'Create an event',
  tags: ['events'],
  requestBody: { type: 'object', properties: { title: { type: 'string' } } },
  responses: { '201': { description: 'The event' } },
  ...noop(),
});

const awsRow = route({
  family: 'aws',
  method: 'POST',
  path: '/workflow',
  operationId: 'StartJob',
  summary: 'Start a workflow job',
  requestBody: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
  responses: { '200': { description: 'The job', schema: { type: 'object', properties: { jobId: { type: 'string' } } } } },
  ...noop(),
});

const SCHEMAS = {
  'secret-scanning-alert': {
    type: 'object',
    required: ['number', 'state'],
    properties: { number: { type: 'integer' }, state: { type: 'string' }, resolution: { $ref: '#/components/schemas/resolution' } },
  },
  resolution: { type: 'string', nullable: true, enum: ['false_positive', 'wont_fix', 'revoked', 'used_in_tests', null] },
  unused: { type: 'string' },
};

// ---------------------------------------------------------------------------------------------------------
// A structural OpenAPI 3.0.3 check (no validator package is installed): the required fields of each object
// the generator emits, the path-template/parameter rules, unique operationIds and resolvable $refs.

function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!cur || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function allRefs(value: unknown, at = '#', out: { at: string; ref: string }[] = []): { at: string; ref: string }[] {
  if (Array.isArray(value)) value.forEach((v, i) => allRefs(v, `${at}/${i}`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref') out.push({ at, ref: String(v) });
      else allRefs(v, `${at}/${k}`, out);
    }
  }
  return out;
}

function openApiProblems(doc: OpenAPIV3Document): string[] {
  const problems: string[] = [];
  const d = doc as unknown as Record<string, any>;
  for (const k of Object.keys(d)) {
    if (!['openapi', 'info', 'servers', 'paths', 'components', 'security', 'tags', 'externalDocs'].includes(k) && !k.startsWith('x-')) {
      problems.push(`unknown top-level field ${k}`);
    }
  }
  if (!/^3\.0\.\d+$/.test(d.openapi)) problems.push('openapi must be 3.0.x');
  if (typeof d.info?.title !== 'string' || !d.info.title) problems.push('info.title');
  if (typeof d.info?.version !== 'string' || !d.info.version) problems.push('info.version');
  if (!Array.isArray(d.servers) || d.servers.some((s: any) => typeof s.url !== 'string')) problems.push('servers');
  if (!d.paths || typeof d.paths !== 'object') problems.push('paths');
  const opIds = new Set<string>();
  for (const [path, item] of Object.entries<Record<string, any>>(d.paths ?? {})) {
    if (!path.startsWith('/')) problems.push(`path ${path} must start with /`);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries<any>(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!METHODS.includes(method)) problems.push(`${where}: unknown method`);
      if (typeof op.operationId !== 'string') problems.push(`${where}: operationId`);
      else if (opIds.has(op.operationId)) problems.push(`${where}: duplicate operationId ${op.operationId}`);
      opIds.add(op.operationId);
      const params: any[] = op.parameters ?? [];
      const keys = new Set<string>();
      for (const p of params) {
        if (typeof p.name !== 'string' || !['path', 'query', 'header', 'cookie'].includes(p.in)) problems.push(`${where}: bad parameter`);
        if (!p.schema || typeof p.schema !== 'object') problems.push(`${where}: parameter ${p.name} needs a schema`);
        if (keys.has(`${p.in}:${p.name}`)) problems.push(`${where}: duplicate parameter ${p.name}`);
        keys.add(`${p.in}:${p.name}`);
        if (p.in === 'path' && p.required !== true) problems.push(`${where}: path parameter ${p.name} must be required`);
        if (p.in === 'path' && !templated.includes(p.name)) problems.push(`${where}: path parameter ${p.name} not in the path`);
      }
      for (const t of templated) {
        if (!params.some((p) => p.in === 'path' && p.name === t)) problems.push(`${where}: no parameter for {${t}}`);
      }
      if (op.requestBody && (!op.requestBody.content || !Object.keys(op.requestBody.content).length)) problems.push(`${where}: requestBody.content`);
      const responses = Object.entries<any>(op.responses ?? {});
      if (!responses.length) problems.push(`${where}: responses must not be empty`);
      for (const [status, r] of responses) {
        if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) problems.push(`${where}: bad status ${status}`);
        if (typeof r.description !== 'string') problems.push(`${where} ${status}: description`);
      }
      for (const req of op.security ?? d.security ?? []) {
        for (const name of Object.keys(req)) {
          if (!d.components?.securitySchemes?.[name]) problems.push(`${where}: unknown security scheme ${name}`);
        }
      }
    }
  }
  for (const [name, s] of Object.entries<any>(d.components?.securitySchemes ?? {})) {
    if (s.type === 'http' && typeof s.scheme !== 'string') problems.push(`securityScheme ${name}: scheme`);
    if (s.type === 'apiKey' && (typeof s.name !== 'string' || !['header', 'query', 'cookie'].includes(s.in))) problems.push(`securityScheme ${name}`);
    if (!['http', 'apiKey', 'oauth2', 'openIdConnect'].includes(s.type)) problems.push(`securityScheme ${name}: type`);
  }
  for (const name of Object.keys(d.components?.schemas ?? {})) {
    if (!/^[a-zA-Z0-9.\-_]+$/.test(name)) problems.push(`component name ${name}`);
  }
  for (const { at, ref } of allRefs(doc)) {
    if (resolvePointer(doc, ref) === undefined) problems.push(`${at}: $ref ${ref} does not resolve`);
  }
  return problems;
}

function operations(doc: OpenAPIV3Document): any[] {
  return Object.values(doc.paths).flatMap((item) => Object.values(item));
}

// ---------------------------------------------------------------------------------------------------------

describe('the structural check itself', () => {
  it('reports dangling $refs, missing or optional path parameters, duplicate operationIds', () => {
    const doc = buildOpenApi(secretScanningRows, { ...OPTS, schemas: SCHEMAS });
    expect(openApiProblems(doc)).toEqual([]);
    const broken = JSON.parse(JSON.stringify(doc)) as any;
    delete broken.components.schemas.resolution;
    const item = broken.paths['/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}'];
    item.get.parameters = item.get.parameters.filter((p: any) => p.name !== 'owner');
    item.patch.parameters[0].required = false;
    item.patch.operationId = item.get.operationId;
    const problems = openApiProblems(broken).join('\n');
    expect(problems).toMatch(/\$ref #\/components\/schemas\/resolution does not resolve/);
    expect(problems).toMatch(/GET .*: no parameter for \{owner\}/);
    expect(problems).toMatch(/PATCH .*: path parameter owner must be required/);
    expect(problems).toMatch(/duplicate operationId secret-scanning\/get-alert/);
  });
});

describe('buildOpenApi from REST_ROUTES', () => {
  const doc = buildOpenApi(GITHUB_ROUTES, { ...OPTS, description: 'Generated from the route table', schemas: SECRET_SCANNING_SCHEMAS });

  it('is a structurally valid OpenAPI 3.0.3 document', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info).toEqual({ title: OPTS.title, version: OPTS.version, description: 'Generated from the route table' });
    expect(doc.servers).toEqual([{ url: OPTS.serverUrl }]);
    expect(openApiProblems(doc)).toEqual([]);
    // It is plain JSON.
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('has one operation per row, under the row path and method', () => {
    expect(operations(doc)).toHaveLength(GITHUB_ROUTES.length);
    for (const r of GITHUB_ROUTES) {
      const op = (doc.paths[r.path] as any)?.[r.method.toLowerCase()];
      expect(op).toMatchObject({ operationId: r.operationId, summary: r.summary });
    }
    const ids = operations(doc).map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents the path parameters as required', () => {
    const op = doc.paths['/repos/{owner}/{repo}'].get!;
    expect(op.parameters!.filter((p) => p.in === 'path').map((p) => [p.name, p.required])).toEqual([
      ['owner', true],
      ['repo', true],
    ]);
  });

  it('declares the GitHub error bodies and the bearer scheme, and 4xx answers refer to them', () => {
    expect(doc.components.schemas['basic-error']).toMatchObject({
      required: ['message', 'documentation_url', 'status'],
      properties: { status: { type: 'string' } },
    });
    expect(doc.components.schemas['validation-error']).toMatchObject({
      properties: { errors: { type: 'array', items: { properties: { resource: {}, field: {}, code: {}, message: {} } } } },
    });
    expect(doc.components.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    const repo = doc.paths['/repos/{owner}/{repo}'].get!;
    expect(repo.responses['404']).toEqual({
      description: 'Resource not found',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/basic-error' } } },
    });
    expect(repo.responses['422'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/validation-error' });
    const githubOps = new Set(REST_ROUTES.filter((r) => r.family === 'github').map((r) => r.operationId));
    for (const op of operations(doc).filter((o) => githubOps.has(o.operationId))) {
      for (const [status, r] of Object.entries<any>(op.responses)) {
        if (status.startsWith('4')) expect(r.content['application/json'].schema.$ref).toMatch(/^#\/components\/schemas\/(basic|validation)-error$/);
      }
    }
    // GET /user documents a 401, so it needs a token; GET /repos/{owner}/{repo} also answers anonymous callers.
    expect(doc.paths['/user'].get!.security).toEqual([{ bearerAuth: [] }]);
    expect(repo.security).toEqual([{ bearerAuth: [] }, {}]);
  });
});

describe('buildOpenApi from synthetic rows', () => {
  const rows = [...OTHER_ROUTES, ...secretScanningRows, wordpressRow, awsRow];
  const all = buildOpenApi(rows, { ...OPTS, schemas: SCHEMAS });

  it('is valid with every family and named schemas', () => {
    expect(openApiProblems(all)).toEqual([]);
    expect(operations(all)).toHaveLength(rows.length);
    expect(Object.keys(all.components.schemas).sort()).toEqual(
      ['aws-error', 'basic-error', 'resolution', 'secret-scanning-alert', 'validation-error', 'wordpress-error'].sort(),
    );
    expect(all.components.securitySchemes).toMatchObject({ bearerAuth: { type: 'http', scheme: 'bearer' }, awsSigV4: { type: 'apiKey' } });
    expect(all.tags!.map((t) => t.name)).toEqual(['events', 'repos', 'secret-scanning', 'users']);
  });

  it('derives undeclared path parameters and keeps declared ones', () => {
    const get = all.paths['/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}'].get!;
    expect(get.parameters).toEqual([
      { name: 'owner', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'repo', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'alert_number', in: 'path', required: true, description: 'The number of the alert.', schema: { type: 'integer' } },
    ]);
    const list = all.paths['/orgs/{org}/secret-scanning/alerts'].get!;
    expect(list.parameters!.map((p) => [p.name, p.in, p.required])).toEqual([
      ['org', 'path', true],
      ['state', 'query', undefined],
      ['per_page', 'query', undefined],
    ]);
  });

  it('puts GET and PATCH of one path in one path item; the body is JSON', () => {
    const item = all.paths['/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}'];
    expect(Object.keys(item).sort()).toEqual(['get', 'patch']);
    expect(item.patch!.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: secretScanningRows[2].requestBody } },
    });
    expect(item.get!.requestBody).toBeUndefined();
    expect(item.patch!.responses['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/secret-scanning-alert' });
    // The row's own 422 description, with the validation-error body.
    expect(item.patch!.responses['422']).toEqual({
      description: 'State does not match the resolution',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/validation-error' } } },
    });
  });

  it('uses each family error body', () => {
    const wp = all.paths['/calendar/v1/events'].post!;
    expect(all.components.schemas['wordpress-error']).toMatchObject({
      required: ['code', 'message', 'data'],
      properties: { data: { required: ['status'], properties: { status: { type: 'integer' } } } },
    });
    for (const status of ['400', '401', '403', '404']) {
      expect(wp.responses[status].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/wordpress-error' });
    }
    expect(wp.requestBody!.required).toBe(false);
    expect(wp.security).toEqual([{ bearerAuth: [] }, {}]);

    const aws = all.paths['/workflow'].post!;
    expect(all.components.schemas['aws-error']).toMatchObject({ required: ['__type', 'message'] });
    expect(aws.responses['400'].content).toEqual({ 'application/x-amz-json-1.0': { schema: { $ref: '#/components/schemas/aws-error' } } });
    expect(aws.responses['400'].headers).toHaveProperty('x-amzn-ErrorType');
    expect(Object.keys(aws.requestBody!.content)).toEqual(['application/json', 'application/x-amz-json-1.0']);
    expect(aws.security).toEqual([{ awsSigV4: [] }, {}]);
  });

  it('filters by a path predicate, by prefix and by family', () => {
    const secretScanning = buildOpenApi(rows, {
      ...OPTS,
      schemas: SCHEMAS,
      pathFilter: (p) => p.startsWith('/orgs/{org}/secret-scanning') || p.startsWith('/repos/{owner}/{repo}/secret-scanning'),
    });
    expect(openApiProblems(secretScanning)).toEqual([]);
    expect(Object.keys(secretScanning.paths).sort()).toEqual([
      '/orgs/{org}/secret-scanning/alerts',
      '/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}',
    ]);
    expect(operations(secretScanning).map((o) => o.operationId).sort()).toEqual([
      'secret-scanning/get-alert',
      'secret-scanning/list-alerts-for-org',
      'secret-scanning/update-alert',
    ]);
    // Only the schemas those operations use; no other family's error body.
    expect(Object.keys(secretScanning.components.schemas).sort()).toEqual(['basic-error', 'resolution', 'secret-scanning-alert', 'validation-error']);

    const repos = buildOpenApi(rows, { ...OPTS, schemas: SCHEMAS, pathPrefix: '/repos/{owner}/{repo}' });
    expect(Object.keys(repos.paths).sort()).toEqual(['/repos/{owner}/{repo}', '/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}']);
    expect(Object.keys(buildOpenApi(rows, { ...OPTS, pathPrefix: '/repos/{owner}/{re' }).paths)).toEqual([]);

    const wp = buildOpenApi(rows, { ...OPTS, family: 'wordpress' });
    expect(openApiProblems(wp)).toEqual([]);
    expect(Object.keys(wp.paths)).toEqual(['/calendar/v1/events']);
    expect(Object.keys(wp.components.schemas)).toEqual(['wordpress-error']);

    const none = buildOpenApi(rows, { ...OPTS, family: 'aws', pathFilter: () => false });
    expect(none.paths).toEqual({});
    expect(Object.keys(none.components.schemas)).toEqual(['aws-error']);
    expect(openApiProblems(none)).toEqual([]);
  });

  it('changes when a row is added to the table', () => {
    const before = buildOpenApi(OTHER_ROUTES, OPTS);
    const after = buildOpenApi([...OTHER_ROUTES, secretScanningRows[0]], { ...OPTS, schemas: SCHEMAS });
    expect(after).not.toEqual(before);
    expect(before.paths['/orgs/{org}/secret-scanning/alerts']).toBeUndefined();
    expect(after.paths['/orgs/{org}/secret-scanning/alerts'].get!.operationId).toBe('secret-scanning/list-alerts-for-org');
    expect(after.components.schemas).toHaveProperty('secret-scanning-alert');
    expect(before.components.schemas).not.toHaveProperty('secret-scanning-alert');
    // Everything that was there is still there.
    for (const [path, item] of Object.entries(before.paths)) expect(after.paths[path]).toEqual(item);
  });

  it('does not share objects with the rows', () => {
    const doc = buildOpenApi(secretScanningRows, { ...OPTS, schemas: SCHEMAS });
    (doc.paths['/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}'].patch!.requestBody!.content['application/json'].schema as any).mutated = true;
    (doc.components.schemas['secret-scanning-alert'] as any).mutated = true;
    expect(secretScanningRows[2].requestBody).not.toHaveProperty('mutated');
    expect(SCHEMAS['secret-scanning-alert']).not.toHaveProperty('mutated');
  });

  it('rejects tables it cannot document faithfully', () => {
    expect(() => buildOpenApi(secretScanningRows, OPTS)).toThrow(/secret-scanning-alert.*opts\.schemas/);
    expect(() => buildOpenApi([...secretScanningRows, { ...secretScanningRows[0], path: '/other' }], { ...OPTS, schemas: SCHEMAS })).toThrow(
      /duplicate operationId/,
    );
    expect(() => buildOpenApi([...secretScanningRows, { ...secretScanningRows[0], operationId: 'x' }], { ...OPTS, schemas: SCHEMAS })).toThrow(
      /two rows for GET/,
    );
    const badParam = { ...secretScanningRows[0], parameters: [{ name: 'owner', in: 'path' as const, schema: { type: 'string' } }] };
    expect(() => buildOpenApi([badParam], { ...OPTS, schemas: SCHEMAS })).toThrow(/no \{owner\}/);
    expect(() => buildOpenApi(secretScanningRows, { ...OPTS, schemas: { ...SCHEMAS, 'basic-error': {} } })).toThrow(/reserved/);
  });
});

describe('registerOpenApiRoute', () => {
  // app.inject needs an ESM-only package jest cannot load on Node 20, so listen on an ephemeral port.
  async function serve(register: (app: FastifyInstance) => void): Promise<{ url: string; close: () => Promise<void> }> {
    const app = Fastify({ logger: false });
    register(app);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    return { url, close: () => app.close() };
  }

  it('serves the JSON and builds it once', async () => {
    const build = jest.fn(() => buildOpenApi(GITHUB_ROUTES, { ...OPTS, schemas: SECRET_SCANNING_SCHEMAS }));
    const s = await serve((app) => registerOpenApiRoute(app, '/openapi.json', build));
    try {
      const a = await fetch(`${s.url}/openapi.json`);
      const aBody = await a.text();
      const b = await fetch(`${s.url}/openapi.json`);
      expect(a.status).toBe(200);
      expect(a.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(aBody)).toEqual(JSON.parse(JSON.stringify(buildOpenApi(GITHUB_ROUTES, { ...OPTS, schemas: SECRET_SCANNING_SCHEMAS }))));
      expect(await b.text()).toBe(aBody);
      expect(build).toHaveBeenCalledTimes(1);
    } finally {
      await s.close();
    }
  });

  it('retries a build that failed', async () => {
    let calls = 0;
    const s = await serve((app) =>
      registerOpenApiRoute(app, '/doc.json', () => {
        calls += 1;
        if (calls === 1) throw new Error('not yet');
        return { ok: true };
      }),
    );
    try {
      expect((await fetch(`${s.url}/doc.json`)).status).toBe(500);
      const second = await fetch(`${s.url}/doc.json`);
      expect(second.status).toBe(200);
      expect(await second.json()).toEqual({ ok: true });
      expect(calls).toBe(2);
    } finally {
      await s.close();
    }
  });
});
