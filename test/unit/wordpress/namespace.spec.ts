/**
 * The namespace index and /doc derived from WordPress rows (synthetic ones here; the calendar's rows get the
 * same for free): WordPress core's index shape, and an OpenAPI 3.0.0 document a validator accepts.
 */
import type { RestRoute } from '../../../src/rest/route-table';
import { buildNamespaceDoc, buildNamespaceIndex, CALENDAR_NAMESPACE, namespaceRoutes, registerNamespaceSchemas, wordpressRouteKey } from '../../../src/rest/wordpress/namespaces';
import { wp, wpRoute } from '../../../src/rest/wordpress/params';
import { validateOpenApi } from '../../helpers/openapi-validate';

const BASE = '/calendar/events/v1';
const noop = { handle: async () => ({}), present: () => ({ body: {} }) };

const listArgs = {
  page: wp.integer({ description: 'Archive page', default: 1, minimum: 1 }),
  per_page: wp.integer({ description: 'Events per page', default: 10, minimum: 1 }),
  categories: wp.list('string', { description: 'Category IDs or slugs' }),
  featured: wp.boolean({ description: 'Featured events only' }),
};
const writeArgs = { title: wp.string({ description: 'Title', required: true }), all_day: wp.boolean({ default: false }) };
const idArg = { id: wp.pathId({ description: 'Event ID' }) };

const rows: RestRoute<any, any>[] = [
  wpRoute({ method: 'GET', path: `${BASE}/events`, operationId: 'list', summary: 'List events', args: listArgs, responses: { '200': { description: 'Events', schema: { type: 'array', items: { $ref: '#/components/schemas/Event' } } } }, ...noop }),
  wpRoute({ method: 'POST', path: `${BASE}/events`, operationId: 'create', summary: 'Create an event', args: writeArgs, responses: { '201': { description: 'Created', schema: { $ref: '#/components/schemas/Event' } } }, ...noop }),
  wpRoute({ method: 'GET', path: `${BASE}/events/{id}`, operationId: 'get', summary: 'Get an event', args: { ...idArg, password: wp.string() }, ...noop }),
  ...(['POST', 'PUT', 'PATCH'] as const).map((method) =>
    wpRoute({ method, path: `${BASE}/events/{id}`, operationId: `update-${method}`, summary: 'Update an event', args: { ...idArg, title: wp.string(), all_day: wp.boolean() }, ...noop }),
  ),
  wpRoute({ method: 'DELETE', path: `${BASE}/events/{id}`, operationId: 'delete', summary: 'Trash an event', args: idArg, ...noop }),
  wpRoute({ method: 'GET', path: `${BASE}/events/by-slug/{slug}`, operationId: 'by-slug', summary: 'Get by slug', args: { slug: wp.pathSlug() }, ...noop }),
];

registerNamespaceSchemas(CALENDAR_NAMESPACE.namespace, { Event: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } } });

const all = [...rows, ...namespaceRoutes(rows)];

describe('namespace index', () => {
  const index = buildNamespaceIndex(all, CALENDAR_NAMESPACE, 'https://cal.example.test/') as any;

  it('routes keyed by WordPress regex paths, the index and /doc first', () => {
    expect(index.namespace).toBe('calendar/events/v1');
    expect(Object.keys(index.routes)).toEqual([
      '/calendar/events/v1',
      '/calendar/events/v1/doc',
      '/calendar/events/v1/events',
      '/calendar/events/v1/events/(?P<id>\\d+)',
      '/calendar/events/v1/events/by-slug/(?P<slug>[^/]+)',
    ]);
    expect(wordpressRouteKey(rows[2])).toBe('/calendar/events/v1/events/(?P<id>\\d+)');
    expect(index._links).toEqual({ up: [{ href: 'https://cal.example.test/' }] });
  });

  it('GET and POST of one path in one route; POST, PUT and PATCH with the same arguments in one endpoint', () => {
    const events = index.routes['/calendar/events/v1/events'];
    expect(events.methods).toEqual(['GET', 'POST']);
    expect(events.endpoints.map((e: any) => e.methods)).toEqual([['GET'], ['POST']]);
    const single = index.routes['/calendar/events/v1/events/(?P<id>\\d+)'];
    expect(single.methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(single.endpoints.map((e: any) => e.methods)).toEqual([['GET'], ['POST', 'PUT', 'PATCH'], ['DELETE']]);
  });

  it('args: required, description, type, default, items; i18n_language everywhere', () => {
    const get = index.routes['/calendar/events/v1/events'].endpoints[0].args;
    expect(get.page).toEqual({ required: false, description: 'Archive page', type: 'integer', default: 1, minimum: 1 });
    expect(get.categories).toEqual({ required: false, description: 'Category IDs or slugs', type: 'array', items: { type: 'string' } });
    expect(index.routes['/calendar/events/v1/events'].endpoints[1].args.title).toEqual({ required: true, description: 'Title', type: 'string' });
    expect(index.routes['/calendar/events/v1/events/(?P<id>\\d+)'].endpoints[0].args.id).toMatchObject({ required: true, type: 'integer' });
    for (const route of Object.values(index.routes) as any[]) {
      for (const e of route.endpoints) expect(e.args.i18n_language).toMatchObject({ required: false, type: 'string', enum: ['da', 'en', 'fr', 'de'] });
    }
    // WordPress's own arguments of the index route: untyped, with defaults.
    expect(index.routes['/calendar/events/v1'].endpoints[0].args).toMatchObject({ namespace: { required: false, default: 'calendar/events/v1' }, context: { required: false, default: 'view' } });
  });

  it('_links.self only on routes without path parameters', () => {
    expect(index.routes['/calendar/events/v1/events']._links).toEqual({ self: [{ href: 'https://cal.example.test/calendar/events/v1/events' }] });
    expect(index.routes['/calendar/events/v1']._links).toEqual({ self: [{ href: 'https://cal.example.test/calendar/events/v1' }] });
    expect(index.routes['/calendar/events/v1/events/(?P<id>\\d+)']._links).toBeUndefined();
  });

  it('no rows in a namespace: no index, no /doc', () => {
    expect(namespaceRoutes([])).toEqual([]);
  });
});

describe('/doc', () => {
  const doc = buildNamespaceDoc(all, CALENDAR_NAMESPACE, 'https://cal.example.test') as any;

  it('is a valid OpenAPI 3.0.0 document', async () => {
    expect(doc.openapi).toBe('3.0.0');
    await expect(validateOpenApi(doc)).resolves.toBe('valid');
    // The validator can fail: a parameter without a schema is refused.
    const broken = JSON.parse(JSON.stringify(doc));
    delete broken.paths['/events'].get.parameters[0].schema;
    await expect(validateOpenApi(broken)).resolves.toMatch(/^invalid/);
  });

  it('info, servers, relative paths, components from the registration point', () => {
    expect(Object.keys(doc)).toEqual(['openapi', 'info', 'components', 'servers', 'paths']);
    expect(doc.info).toEqual({
      version: '1.0.0',
      title: 'The Events Calendar REST API',
      description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
    });
    expect(doc.servers).toEqual([{ url: 'https://cal.example.test/calendar/events/v1' }]);
    expect(Object.keys(doc.paths)).toEqual(['/doc', '/events', '/events/{id}', '/events/by-slug/{slug}']);
    expect(Object.keys(doc.paths['/events/{id}'])).toEqual(['get', 'post', 'put', 'patch', 'delete']);
    expect(doc.components.schemas.Event).toBeDefined();
  });

  it('parameters {name, in, description, schema, required}; CSV lists style form, explode false', () => {
    const params = doc.paths['/events'].get.parameters;
    expect(params.find((p: any) => p.name === 'categories')).toEqual({
      name: 'categories', in: 'query', description: 'Category IDs or slugs', schema: { type: 'array', items: { type: 'string' } }, required: false, style: 'form', explode: false,
    });
    expect(params.find((p: any) => p.name === 'page')).toEqual({ name: 'page', in: 'query', description: 'Archive page', schema: { type: 'integer', minimum: 1, default: 1 }, required: false });
    expect(doc.paths['/events/{id}'].get.parameters[0]).toEqual({ name: 'id', in: 'path', description: 'Event ID', schema: { type: 'integer' }, required: true });
    expect(params.map((p: any) => p.name)).toContain('i18n_language');
  });

  it('write arguments are the request body (JSON or form)', () => {
    const body = doc.paths['/events'].post.requestBody;
    expect(Object.keys(body.content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(body.content['application/json'].schema).toEqual({ type: 'object', properties: { title: { type: 'string', description: 'Title' }, all_day: { type: 'boolean', default: false } }, required: ['title'] });
  });

  it('a $ref to a schema nobody registered fails the build (never a dangling reference)', () => {
    const bad = wpRoute({ method: 'GET', path: `${BASE}/x`, operationId: 'x', summary: 'x', args: {}, responses: { '200': { description: 'x', schema: { $ref: '#/components/schemas/Nope' } } }, ...noop });
    expect(() => buildNamespaceDoc([bad], CALENDAR_NAMESPACE, 'https://x')).toThrow(/Nope/);
  });
});
