/**
 * WordPress argument declarations: values read and typed as WordPress's schema validation does, all problems
 * of a request answered in ONE error in WordPress's shape (through the family's errorReply).
 */
import { NotFoundError, ValidationError } from '../../../src/errors/app-error';
import { wordpressFamily } from '../../../src/rest/wordpress/family';
import { prepareWordpressRequest, readWpArgs, wp, WpArgs, WpParamsError, wpRoute } from '../../../src/rest/wordpress/params';
import type { RestRequest } from '../../../src/rest/route-table';

type Req = Pick<RestRequest, 'method' | 'params' | 'query' | 'body'>;
const get = (query: Record<string, string | string[]>, params: Record<string, string> = {}): Req => ({ method: 'GET', params, query, body: undefined });
const post = (body: unknown, query: Record<string, string | string[]> = {}, params: Record<string, string> = {}): Req => ({ method: 'POST', params, query, body });

/** The family's answer to whatever reading `args` from `req` throws. */
function answer(req: Req, args: WpArgs, language?: 'da' | 'en' | 'fr' | 'de') {
  try {
    readWpArgs(req, args);
  } catch (e) {
    const r = wordpressFamily.errorReply(e as ValidationError, undefined, language);
    return { status: r.status, body: r.body as { code: string; message: string; data: Record<string, any> } };
  }
  throw new Error('expected an error');
}

describe('WordPress argument types', () => {
  const one = (arg: WpArgs[string], value: unknown) => {
    try {
      return { value: readWpArgs(post({ x: value }), { x: arg }).x };
    } catch (e) {
      return { error: (wordpressFamily.errorReply(e as ValidationError).body as any).data.params.x as string };
    }
  };

  it('integer: numeric and integral strings and numbers; not decimals, words or booleans', () => {
    expect(one(wp.integer(), '5')).toEqual({ value: 5 });
    expect(one(wp.integer(), '5.0')).toEqual({ value: 5 });
    expect(one(wp.integer(), ' 7')).toEqual({ value: 7 });
    expect(one(wp.integer(), 12)).toEqual({ value: 12 });
    expect(one(wp.integer(), '-3')).toEqual({ value: -3 });
    for (const bad of ['5.5', 'x', '', '0x1A', true, [], {}]) expect(one(wp.integer(), bad)).toEqual({ error: 'x is not of type integer.' });
  });

  it('number: any numeric value', () => {
    expect(one(wp.number(), '5.5')).toEqual({ value: 5.5 });
    expect(one(wp.number(), -1e3)).toEqual({ value: -1000 });
    expect(one(wp.number(), 'abc')).toEqual({ error: 'x is not of type number.' });
  });

  it('boolean: rest_is_boolean (true/false/1/0 in any case, JSON booleans and 0/1); "" and "yes" are not', () => {
    for (const [v, b] of [['true', true], ['TRUE', true], ['1', true], [1, true], [true, true], ['false', false], ['0', false], [0, false], [false, false]] as const) {
      expect(one(wp.boolean(), v)).toEqual({ value: b });
    }
    for (const bad of ['', 'yes', 'on', 2, 'truthy']) expect(one(wp.boolean(), bad)).toEqual({ error: 'x is not of type boolean.' });
  });

  it('string: a JSON number is not a string', () => {
    expect(one(wp.string(), 'abc')).toEqual({ value: 'abc' });
    expect(one(wp.string(), 5)).toEqual({ error: 'x is not of type string.' });
  });

  it('enum: WordPress lists the values ("a, b, and c"); one value: "x is not a."', () => {
    expect(one(wp.enum(['asc', 'desc']), 'asc')).toEqual({ value: 'asc' });
    expect(one(wp.enum(['a', 'b', 'c']), 'z')).toEqual({ error: 'x is not one of a, b, and c.' });
    expect(one(wp.enum(['a', 'b']), 'z')).toEqual({ error: 'x is not one of a and b.' });
    expect(one(wp.enum(['a']), 'z')).toEqual({ error: 'x is not a.' });
  });

  it('lists: CSV, repeated and name[] values; each item checked', () => {
    const ids = { categories: wp.list('integer') };
    expect(readWpArgs(get({ categories: '1,2, 3' }), ids).categories).toEqual([1, 2, 3]);
    expect(readWpArgs(get({ categories: ['4', '5'] }), ids).categories).toEqual([4, 5]);
    expect(readWpArgs(get({ 'categories[]': ['6', '7'] }), ids).categories).toEqual([6, 7]);
    expect(readWpArgs(post({ categories: [8, '9'] }), ids).categories).toEqual([8, 9]);
    expect(readWpArgs(get({ tags: 'music,art' }), { tags: wp.list('string') }).tags).toEqual(['music', 'art']);
    expect(one(wp.list('integer'), '1,x')).toEqual({ error: 'x[1] is not of type integer.' });
    expect(one(wp.list('integer'), { a: 1 })).toEqual({ error: 'x is not of type array.' });
  });

  it('minimum / maximum (rest_out_of_bounds), WordPress wording without a period', () => {
    expect(one(wp.integer({ minimum: 1 }), '0')).toEqual({ error: 'x must be greater than or equal to 1' });
    expect(one(wp.integer({ maximum: 50 }), '51')).toEqual({ error: 'x must be less than or equal to 50' });
    expect(one(wp.integer({ minimum: 1, maximum: 50 }), '0')).toEqual({ error: 'x must be between 1 (inclusive) and 50 (inclusive)' });
  });

  it('defaults fill absent values; a repeated scalar keeps its last value (PHP)', () => {
    const args = { page: wp.integer({ default: 1, minimum: 1 }), search: wp.string() };
    expect(readWpArgs(get({}), args)).toEqual({ page: 1, search: undefined });
    expect(readWpArgs(get({ page: ['2', '3'] }), args).page).toBe(3);
  });

  it('writes: the body over the query, the path over both; JSON null counts as absent', () => {
    const args = { id: wp.integer(), title: wp.string(), status: wp.string() };
    const v = readWpArgs(post({ title: 'body', id: 9, status: null }, { title: 'query', status: 'draft' }, { id: '5' }), args);
    expect(v).toEqual({ id: 5, title: 'body', status: 'draft' });
    // GET never reads a body.
    expect(readWpArgs({ method: 'GET', params: {}, query: {}, body: { title: 'x' } }, args).title).toBeUndefined();
  });
});

describe('one error for every problem of a request', () => {
  const args = {
    page: wp.integer({ minimum: 1, default: 1 }),
    featured: wp.boolean(),
    order: wp.enum(['asc', 'desc']),
    start_date: wp.string({ validate: (v) => !Number.isNaN(Date.parse(v)) }),
    title: wp.string({ required: true }),
    end_date: wp.string({ required: true }),
  };

  it('missing required arguments: rest_missing_callback_param with the names as a list (before the other checks)', () => {
    const r = answer(post({ page: '0' }), args);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): title, end_date', data: { status: 400, params: ['title', 'end_date'] } });
  });

  it('invalid arguments: rest_invalid_param naming all, params {name: message}, details {name: {code, message, data}}', () => {
    const r = answer(post({ title: 't', end_date: 'e', page: '0', featured: 'maybe', order: 'up', start_date: 'not a date' }), args);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('rest_invalid_param');
    expect(r.body.message).toBe('Invalid parameter(s): page, featured, order, start_date');
    expect(r.body.data.params).toEqual({
      page: 'page must be greater than or equal to 1',
      featured: 'featured is not of type boolean.',
      order: 'order is not one of asc and desc.',
      start_date: 'Invalid parameter.',
    });
    expect(r.body.data.details).toEqual({
      page: { code: 'rest_out_of_bounds', message: 'page must be greater than or equal to 1', data: null },
      featured: { code: 'rest_invalid_type', message: 'featured is not of type boolean.', data: { param: 'featured' } },
      order: { code: 'rest_not_in_enum', message: 'order is not one of asc and desc.', data: null },
    });
  });

  it('a validator that only says "no" gives no details: details is [] as PHP encodes it', () => {
    const r = answer(post({ title: 't', end_date: 'e', start_date: 'nope' }), args);
    expect(r.body.data).toEqual({ status: 400, params: { start_date: 'Invalid parameter.' }, details: [] });
  });

  it('a validator can give its own code and message (WP_Error)', () => {
    const r = answer(get({ d: 'x' }), { d: wp.string({ validate: () => ({ code: 'rest_invalid_date', message: { text: 'd is not a date.' }, data: { param: 'd' } }) }) });
    expect(r.body.data.details).toEqual({ d: { code: 'rest_invalid_date', message: 'd is not a date.', data: { param: 'd' } } });
  });

  it('messages come out in the chosen language', () => {
    const fr = answer(post({ title: 't', end_date: 'e', featured: 'x', order: 'up' }), args, 'fr');
    expect(fr.body.message).toBe('Paramètre(s) non valide(s) : featured, order');
    expect(fr.body.data.params).toEqual({ featured: 'featured n’est pas de type boolean.', order: 'order n’est pas l’une des valeurs suivantes : asc et desc.' });
    const da = answer(post({}), args, 'da');
    expect(da.body.message).toBe('Manglende parameter(e): title, end_date');
    const de = answer(post({ title: 't', end_date: 'e', start_date: 'x' }), args, 'de');
    expect(de.body.data.params).toEqual({ start_date: 'Ungültiger Parameter.' });
  });

  it('a path id that is not digits matches no route (404 rest_no_route), before any other check', () => {
    expect(() => readWpArgs(get({}, { id: '12abc' }), { id: wp.pathId(), title: wp.string({ required: true }) })).toThrow(NotFoundError);
    const r = answer(get({}, { id: '-1' }), { id: wp.pathId() });
    expect(r).toEqual({ status: 404, body: { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } } });
    expect(readWpArgs(get({}, { id: '42' }), { id: wp.pathId() }).id).toBe(42);
  });

  it('i18n_language is one of every row’s arguments: "i18n_language is not one of da, en, fr, and de."', () => {
    const row = wpRoute({ method: 'GET', path: '/calendar/events/v1/x', operationId: 'x', summary: 'x', args: {}, handle: async () => 1, present: () => ({}) });
    expect(row.parameters?.map((p) => p.name)).toEqual(['i18n_language']);
    const r = answer(get({ i18n_language: 'sv' }), { i18n_language: { type: 'string', enum: ['da', 'en', 'fr', 'de'] } });
    expect(r.body.data.params).toEqual({ i18n_language: 'i18n_language is not one of da, en, fr, and de.' });
    expect(r.body.data.details.i18n_language.code).toBe('rest_not_in_enum');
  });

  it('service field errors in domain names come out in the same shape, keyed by the WordPress name', () => {
    const e = new ValidationError('bad', { fieldErrors: [{ field: 'startDate', code: 'invalid', message: 'Invalid parameter.' }, { field: 'venueId', code: 'rest_invalid_venue', message: 'No such venue.' }] });
    const rename = (f: string) => ({ startDate: 'start_date', venueId: 'venue' })[f] ?? f;
    const r = wordpressFamily.errorReply(e, rename, 'de');
    expect(r.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Ungültige(r) Parameter: start_date, venue',
      data: { status: 400, params: { start_date: 'Ungültiger Parameter.', venue: 'No such venue.' }, details: { venue: { code: 'rest_invalid_venue', message: 'No such venue.', data: null } } },
    });
  });

  it('WpParamsError is a ValidationError (GraphQL and logs see field errors)', () => {
    expect.assertions(2);
    try {
      readWpArgs(get({ page: 'x' }), { page: wp.integer() });
    } catch (e) {
      expect(e).toBeInstanceOf(WpParamsError);
      expect((e as ValidationError).fieldErrors).toEqual([{ field: 'page', code: 'rest_invalid_type', message: 'page is not of type integer.' }]);
    }
  });
});

describe('checked values of a request', () => {
  const row = wpRoute({
    method: 'GET',
    path: '/x/v1/things',
    operationId: 'listThings',
    summary: 'Things',
    args: { n: wp.integer({ default: 3 }) },
    handle: async (_ctx, input) => input,
    present: (result) => ({ body: result }),
  });
  const request = (query: Record<string, string>): RestRequest =>
    ({ ...get(query), target: `/x/v1/things?${new URLSearchParams(query).toString()}` }) as unknown as RestRequest;

  it("are kept on the request by the family's preHandler, and the row's input reads them from there", async () => {
    const req = request({ n: '5' });
    prepareWordpressRequest(req, row);
    expect(req.args).toEqual({ n: 5 });
    // Read once: what the query says afterwards is not read again.
    req.query = { n: 'five' };
    expect(await row.input(req, undefined as never)).toEqual({ n: 5 });
  });

  it('belong to their request only (another request reads its own, or the defaults)', async () => {
    const first = request({ n: '5' });
    prepareWordpressRequest(first, row);
    const second = request({ n: '8' });
    prepareWordpressRequest(second, row);
    expect(await row.input(first, undefined as never)).toEqual({ n: 5 });
    expect(await row.input(second, undefined as never)).toEqual({ n: 8 });
    expect(await row.input(request({}), undefined as never)).toEqual({ n: 3 });
  });
});
