/**
 * The WordPress REST family over real HTTP, with synthetic calendar rows (the calendar domain's rows get all of
 * this from the family): wp_json_encode bodies, trailing slashes, argument checks answered in one error,
 * i18n_language reaching the service context and translating errors, form bodies, application passwords
 * (Basic login:token), the namespace index and the /doc OpenAPI document.
 */
import { ForbiddenError, GoneError, NotFoundError, UnauthenticatedError, ValidationError } from '../../src/errors/app-error';
import type { RestRoute } from '../../src/rest/route-table';
import { REST_ROUTES } from '../../src/rest/routes';
import { CALENDAR_NAMESPACE, registerNamespaceSchemas } from '../../src/rest/wordpress/namespaces';
import { wp, wpRoute } from '../../src/rest/wordpress/params';
import { IdentityFixtures } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { validateOpenApi } from '../helpers/openapi-validate';

const BASE = '/calendar/events/v1';
const isDate = (v: string) => !Number.isNaN(Date.parse(v));

const listArgs = {
  page: wp.integer({ description: 'Archive page', default: 1, minimum: 1 }),
  per_page: wp.integer({ description: 'Events per page', default: 10, minimum: 1 }),
  categories: wp.list('string', { description: 'Category IDs or slugs' }),
  featured: wp.boolean(),
  status: wp.enum(['publish', 'draft', 'pending']),
};
const eventArgs = {
  title: wp.string({ description: 'Title' }),
  start_date: wp.string({ field: 'startDate', validate: isDate }),
  end_date: wp.string({ field: 'endDate', validate: isDate }),
  all_day: wp.boolean(),
  categories: wp.list('integer'),
  venue: wp.any({ field: 'venueId' }),
};
const idArg = { id: wp.pathId({ description: 'Event ID' }) };
const viewerLogin = (ctx: { viewer: { kind: string; user?: { login: string } } }) => (ctx.viewer.kind === 'user' ? ctx.viewer.user!.login : null);

const rows: RestRoute<any, any>[] = [
  wpRoute({
    method: 'GET',
    path: `${BASE}/events`,
    operationId: 'test/list',
    summary: 'List',
    args: listArgs,
    responses: { '200': { description: 'Events', schema: { type: 'array', items: { $ref: '#/components/schemas/Event' } } } },
    handle: async (ctx, input) => ({ input, language: ctx.language ?? null, viewer: viewerLogin(ctx) }),
    present: (r) => ({ body: r, headers: { 'x-tec-total': '0' } }),
  }),
  wpRoute({
    method: 'POST',
    path: `${BASE}/events`,
    operationId: 'test/create',
    summary: 'Create',
    args: { ...eventArgs, title: wp.string({ required: true }), start_date: wp.string({ required: true, validate: isDate }), end_date: wp.string({ required: true, validate: isDate }) },
    handle: async (ctx, input) => {
      // Validation ran before this permission check, as WordPress does it.
      if (ctx.viewer.kind !== 'user') throw new UnauthenticatedError('Sorry, you are not allowed to do that.');
      return { input, language: ctx.language ?? null, viewer: viewerLogin(ctx) };
    },
    present: (r) => ({ status: 201, body: r }),
  }),
  wpRoute({
    method: 'GET',
    path: `${BASE}/events/{id}`,
    operationId: 'test/get',
    summary: 'Get',
    args: { ...idArg, start_date: wp.string({ field: 'startDate' }) },
    handle: async (ctx, { id }) => {
      if (id === 404) throw new NotFoundError(`Event with ID ${id} does not exist.`, { domainCode: 'rest-event-not-found' });
      if (id === 410) throw new GoneError('The event is already trashed', { domainCode: 'event-is-in-trash' });
      if (id === 403) throw new ForbiddenError('Sorry, you are not allowed to do that.');
      if (id === 400) throw new ValidationError('bad', { fieldErrors: [{ field: 'startDate', code: 'invalid', message: 'Invalid parameter.' }] });
      return { id, title: 'Café / Zürich 🎉', url: 'https://example.com/events/1/', language: ctx.language ?? null };
    },
    present: (r) => ({ body: r }),
  }),
  ...(['POST', 'PUT', 'PATCH'] as const).map((method) =>
    wpRoute({
      method,
      path: `${BASE}/events/{id}`,
      operationId: `test/update-${method}`,
      summary: 'Update',
      args: { ...idArg, ...eventArgs },
      handle: async (ctx, input) => {
        if (input.title === 'clash') throw new ValidationError('bad', { fieldErrors: [{ field: 'venueId', code: 'invalid', message: 'Invalid parameter.' }] });
        return { method, input, language: ctx.language ?? null };
      },
      present: (r) => ({ body: r }),
    }),
  ),
];

registerNamespaceSchemas(CALENDAR_NAMESPACE.namespace, { Event: { type: 'object', properties: { id: { type: 'integer' } } } });

describe('WordPress REST family (HTTP)', () => {
  let t: TestApp;
  let login: string;
  let token: string;
  let otherToken: string;
  beforeAll(async () => {
    // The synthetic rows stand in for the calendar's (whose rows, once in REST_ROUTES, would share these paths).
    t = await startTestApp({ routes: [...REST_ROUTES.filter((r) => r.family !== 'wordpress'), ...rows] });
    const f = new IdentityFixtures(t.db.dataSource);
    const user = await f.user();
    login = user.login;
    token = await f.classicToken(user, []);
    otherToken = await f.classicToken(await f.user(), []);
  });
  afterAll(() => t?.close());

  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${t.url}${path}`, init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
  };
  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

  describe('encoding and routing', () => {
    it('answers are wp_json_encode: \\/ and \\uXXXX on the wire, the same data once parsed', async () => {
      const r = await call(`${BASE}/events/1`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(r.text).toContain('"Caf\\u00e9 \\/ Z\\u00fcrich \\ud83c\\udf89"');
      expect(r.text).toContain('"https:\\/\\/example.com\\/events\\/1\\/"');
      expect(r.body).toMatchObject({ id: 1, title: 'Café / Zürich 🎉' });
    });

    it('error bodies too', async () => {
      const r = await call(`${BASE}/events?i18n_language=fr&featured=x`);
      expect(r.status).toBe(400);
      expect(r.text).toContain('featured n\\u2019est pas de type boolean.');
      expect(/^[\x20-\x7e]*$/.test(r.text)).toBe(true);
    });

    it('a trailing slash is stripped before matching', async () => {
      expect((await call(`${BASE}/events/`)).status).toBe(200);
      expect((await call(`${BASE}/events/1/`)).body).toMatchObject({ id: 1 });
      expect((await call(`${BASE}/`)).body.namespace).toBe('calendar/events/v1');
    });

    it('a non-numeric id and an unknown path are 404 rest_no_route', async () => {
      for (const path of [`${BASE}/events/abc`, `${BASE}/events/1x`, `${BASE}/nothing`]) {
        const r = await call(path);
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
      }
    });
  });

  describe('arguments', () => {
    it('typed values reach the service (defaults filled, CSV and repeated lists, booleans the WordPress way)', async () => {
      const r = await call(`${BASE}/events?categories=music,art&categories=film&featured=TRUE&per_page=5`);
      expect(r.status).toBe(200);
      expect(r.body.input).toEqual({ page: 1, per_page: 5, categories: ['music', 'art', 'film'], featured: true, status: undefined, i18n_language: undefined });
    });

    it('every problem of a request in ONE rest_invalid_param answer', async () => {
      const r = await call(`${BASE}/events?page=0&featured=maybe&status=trash&i18n_language=sv`);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('rest_invalid_param');
      expect(r.body.message).toBe('Invalid parameter(s): page, featured, status, i18n_language');
      expect(r.body.data.params).toEqual({
        page: 'page must be greater than or equal to 1',
        featured: 'featured is not of type boolean.',
        status: 'status is not one of publish, draft, and pending.',
        i18n_language: 'i18n_language is not one of da, en, fr, and de.',
      });
      expect(r.body.data.details.i18n_language).toEqual({ code: 'rest_not_in_enum', message: 'i18n_language is not one of da, en, fr, and de.', data: null });
      expect(r.body.data.details.featured.code).toBe('rest_invalid_type');
    });

    it('create: missing required arguments first (400 rest_missing_callback_param), before authentication', async () => {
      const r = await postJson(`${BASE}/events`, { description: 'x' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): title, start_date, end_date', data: { status: 400, params: ['title', 'start_date', 'end_date'] } });
    });

    it('create: an invalid value is 400 for anyone; a valid anonymous request is then 401 rest_forbidden', async () => {
      const bad = await postJson(`${BASE}/events`, { title: 'T', start_date: 'not a date', end_date: '2026-01-02' });
      expect(bad.status).toBe(400);
      expect(bad.body.data).toEqual({ status: 400, params: { start_date: 'Invalid parameter.' }, details: [] });
      const anon = await postJson(`${BASE}/events`, { title: 'T', start_date: '2026-01-01', end_date: '2026-01-02' });
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    });

    it('form-encoded bodies (PHP style), the body over the query', async () => {
      const form = new URLSearchParams([
        ['title', 'Jazz / night'],
        ['start_date', '2026-05-01 20:00'],
        ['end_date', '2026-05-01 23:00'],
        ['categories[]', '3'],
        ['categories[]', '4'],
        ['venue[venue]', 'Hall'],
        ['all_day', '0'],
      ]);
      const r = await call(`${BASE}/events?title=ignored`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(login, token) }, body: form.toString() });
      expect(r.status).toBe(201);
      expect(r.body.input).toMatchObject({ title: 'Jazz / night', start_date: '2026-05-01 20:00', categories: [3, 4], venue: { venue: 'Hall' }, all_day: false });
    });

    it('update: POST, PUT and PATCH share the arguments; the path id wins over a body id', async () => {
      for (const method of ['POST', 'PUT', 'PATCH']) {
        const r = await call(`${BASE}/events/12`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 99, title: 'New', all_day: 1 }) });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ method, input: { id: 12, title: 'New', all_day: true } });
      }
    });

    it('form indexes are keys (a huge index is one entry); too many parameters or levels are a 400 before any work', async () => {
      const form = (body: string) => call(`${BASE}/events`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(login, token) }, body });
      const dates = 'start_date=2026-05-01&end_date=2026-05-02';
      const huge = await form(`title=T&${dates}&categories[999999999]=3&categories[1]=4`);
      expect(huge.status).toBe(201);
      expect(huge.body.input.categories).toEqual([3, 4]);
      const titled = await form(`title[99999999]=x&${dates}`);
      expect(titled.status).toBe(400);
      expect(titled.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { title: expect.any(String) } } });
      const overLimit = { code: 'rest_bad_request', message: 'Too many parameters: at most 1000 are accepted.', data: { status: 400 } };
      const many = await form(`title=T&${dates}&${Array.from({ length: 1000 }, (_, i) => `x${i}=1`).join('&')}`);
      expect(many.status).toBe(400);
      expect(many.body).toEqual(overLimit);
      const deep = await form(`title=T&${dates}&venue${'[a]'.repeat(11)}=1`);
      expect(deep.status).toBe(400);
      expect(deep.body).toMatchObject({ code: 'rest_bad_request', message: expect.stringMatching(/nested too deeply/), data: { status: 400 } });
      // The query is bounded the same way.
      const query = await call(`${BASE}/events?${Array.from({ length: 1001 }, (_, i) => `q${i}=1`).join('&')}`);
      expect(query.status).toBe(400);
      expect(query.body).toEqual(overLimit);
    });

    it('form bodies stay unsupported (415) on other families', async () => {
      const r = await call('/repos/a/b/secret-scanning/alerts/1', { method: 'PATCH', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'state=resolved' });
      expect(r.status).toBe(415);
      expect(r.body).toHaveProperty('documentation_url');
    });

    it('service field errors in domain names are answered in WordPress names', async () => {
      const r = await call(`${BASE}/events/400`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ code: 'rest_invalid_param', message: 'Invalid parameter(s): start_date', data: { status: 400, params: { start_date: 'Invalid parameter.' }, details: [] } });
      // Body arguments of writes too (the domain's venueId is the client's venue, not venue_id).
      const w = await call(`${BASE}/events/3`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'clash' }) });
      expect(w.body).toEqual({ code: 'rest_invalid_param', message: 'Invalid parameter(s): venue', data: { status: 400, params: { venue: 'Invalid parameter.' }, details: [] } });
    });
  });

  describe('i18n_language', () => {
    it('reaches the service context from the query or the body; absent = undefined', async () => {
      expect((await call(`${BASE}/events/1?i18n_language=da`)).body.language).toBe('da');
      expect((await call(`${BASE}/events/1`)).body.language).toBeNull();
      const r = await call(`${BASE}/events/5`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ i18n_language: 'fr' }) });
      expect(r.body.language).toBe('fr');
    });

    it('error messages come out in that language', async () => {
      const nf = await call(`${BASE}/events/404?i18n_language=de`);
      expect(nf.status).toBe(404);
      expect(nf.body).toEqual({ code: 'rest-event-not-found', message: 'Die Veranstaltung mit der ID 404 existiert nicht.', data: { status: 404 } });
      const gone = await call(`${BASE}/events/410?i18n_language=da`);
      expect(gone.status).toBe(410);
      expect(gone.body).toMatchObject({ code: 'event-is-in-trash', message: 'Begivenheden er allerede i papirkurven' });
      const forbidden = await call(`${BASE}/events/403?i18n_language=fr`);
      expect(forbidden.body).toMatchObject({ code: 'rest_forbidden', message: 'Désolé, vous n’avez pas l’autorisation de faire cela.', data: { status: 403 } });
      const missing = await postJson(`${BASE}/events`, { i18n_language: 'da' });
      expect(missing.body.message).toBe('Manglende parameter(e): title, start_date, end_date');
      const en = await call(`${BASE}/events/404?i18n_language=en`);
      expect(en.body.message).toBe('Event with ID 404 does not exist.');
    });
  });

  describe('application passwords (Basic login:token)', () => {
    it('a user’s login and one of its tokens authenticate; the login is case-insensitive', async () => {
      expect((await call(`${BASE}/events`, { headers: basic(login, token) })).body.viewer).toBe(login);
      expect((await call(`${BASE}/events`, { headers: basic(login.toUpperCase(), token) })).body.viewer).toBe(login);
      // Bearer still works.
      expect((await call(`${BASE}/events`, { headers: { authorization: `Bearer ${token}` } })).body.viewer).toBe(login);
    });

    it('unknown login: 401 invalid_username; wrong password or another user’s token: 401 incorrect_password', async () => {
      const unknown = await call(`${BASE}/events`, { headers: basic('nobody-here', token) });
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual({ code: 'invalid_username', message: '<strong>Error:</strong> Unknown username. Check again or try your email address.', data: { status: 401 } });
      const typo = `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`;
      for (const password of ['wrong', typo, otherToken]) {
        const r = await call(`${BASE}/events`, { headers: basic(login, password) });
        expect(r.status).toBe(401);
        expect(r.body).toEqual({ code: 'incorrect_password', message: 'The provided password is an invalid application password.', data: { status: 401 } });
      }
      // Unknown paths too (authentication comes before routing), and in WordPress's encoding.
      const nowhere = await call(`${BASE}/nothing`, { headers: basic(login, 'wrong') });
      expect(nowhere.body.code).toBe('incorrect_password');
    });

    it('other families keep their "Bad credentials" answer', async () => {
      const r = await call('/user', { headers: basic(login, 'wrong') });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ message: 'Bad credentials', status: '401' });
      expect((await call('/user', { headers: basic(login, token) })).body).toMatchObject({ login });
    });

    it('secrets never appear in answers or logs', async () => {
      await call(`${BASE}/events`, { headers: basic(login, `${token}x`) });
      await call(`${BASE}/events`, { headers: basic('nobody', token) });
      const logs = JSON.stringify(t.logs);
      expect(logs).not.toContain(token);
      expect(logs).not.toContain(Buffer.from(`${login}:${token}`).toString('base64'));
    });
  });

  describe('namespace index and /doc', () => {
    it('GET /calendar/events/v1: WordPress core’s index of the rows', async () => {
      const r = await call(BASE);
      expect(r.status).toBe(200);
      expect(r.body.namespace).toBe('calendar/events/v1');
      expect(Object.keys(r.body.routes)).toEqual([BASE, `${BASE}/doc`, `${BASE}/events`, `${BASE}/events/(?P<id>\\d+)`]);
      expect(r.text).toContain('"\\/calendar\\/events\\/v1\\/events\\/(?P<id>\\\\d+)"');
      const single = r.body.routes[`${BASE}/events/(?P<id>\\d+)`];
      expect(single.methods).toEqual(['GET', 'POST', 'PUT', 'PATCH']);
      expect(single.endpoints.map((e: { methods: string[] }) => e.methods)).toEqual([['GET'], ['POST', 'PUT', 'PATCH']]);
      expect(r.body.routes[`${BASE}/events`]._links.self[0].href).toBe(`${t.config.publicUrl}${BASE}/events`);
      expect(r.body.routes[BASE].endpoints[0].args.i18n_language).toMatchObject({ enum: ['da', 'en', 'fr', 'de'] });
      expect(r.body._links.up[0].href).toBe(`${t.config.publicUrl}/`);
    });

    it('namespace and i18n_language arguments', async () => {
      expect((await call(`${BASE}?namespace=calendar/events/v1`)).status).toBe(200);
      const other = await call(`${BASE}?namespace=wp/v2&i18n_language=de`);
      expect(other.status).toBe(404);
      expect(other.body).toEqual({ code: 'rest_invalid_namespace', message: 'Der angegebene Namensraum wurde nicht gefunden.', data: { status: 404 } });
      expect((await call(`${BASE}?i18n_language=xx`)).body.code).toBe('rest_invalid_param');
    });

    it('GET /calendar/events/v1/doc: a valid OpenAPI 3.0.0 document of the same rows', async () => {
      const r = await call(`${BASE}/doc`);
      expect(r.status).toBe(200);
      expect(r.body.openapi).toBe('3.0.0');
      expect(r.body.servers).toEqual([{ url: `${t.config.publicUrl}${BASE}` }]);
      expect(Object.keys(r.body.paths)).toEqual(['/doc', '/events', '/events/{id}']);
      expect(r.body.components.schemas.Event).toBeDefined();
      await expect(validateOpenApi(r.body)).resolves.toBe('valid');
      expect((await call(`${BASE}/doc/`)).status).toBe(200);
    });
  });
});
