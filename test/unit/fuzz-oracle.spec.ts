/**
 * The fuzz test's oracle (test/helpers/fuzz/oracle.ts) on hand-made answers: each rule fires on the
 * defect it is for, and legitimate answers (a GitHub 404/422, a 304, GraphQL errors with codes, data that
 * merely mentions words like "select") pass, so the fuzz test neither misses leaks nor cries wolf.
 */
import type { FuzzCase } from '../helpers/fuzz/case';
import type { WireResponse } from '../helpers/fuzz/http';
import { checkResponse } from '../helpers/fuzz/oracle';
import { leakIn } from '../helpers/fuzz/values';

const rest = (method = 'GET', target = '/repos/acme/api', extra: Partial<FuzzCase> = {}): FuzzCase => ({
  kind: 'rest',
  mode: 'one-bad',
  target: 'GET /repos/{owner}/{repo}',
  oracle: 'github',
  request: { method, target, headers: {} },
  ...extra,
});
const graphql: FuzzCase = { kind: 'graphql', mode: 'one-bad', target: 'Query.viewer', oracle: 'graphql', request: { method: 'POST', target: '/graphql', headers: {}, body: '{}' } };

function res(status: number, body: unknown, type = 'application/json; charset=utf-8', headers: Record<string, string> = {}): WireResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers: { 'content-type': type, ...headers }, body: text, size: Buffer.byteLength(text), ms: 1 };
}
const kinds = (c: FuzzCase, r: WireResponse) => checkResponse(c, r).map((p) => p.kind);
const gh = (status: number, message = 'Not Found') => ({ message, documentation_url: 'https://docs.github.com/rest', status: String(status) });

describe('fuzz oracle', () => {
  it('passes legitimate answers', () => {
    expect(kinds(rest(), res(404, gh(404)))).toEqual([]);
    expect(kinds(rest(), res(422, { ...gh(422, 'Validation Failed'), errors: [{ code: 'invalid', field: 'per_page' }] }))).toEqual([]);
    expect(kinds(rest(), res(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' }))).toEqual([]);
    expect(kinds(rest(), res(200, [{ description: 'Please select a file from the list', path: 'src/index.js' }]))).toEqual([]);
    expect(kinds(rest(), res(304, ''))).toEqual([]);
    expect(kinds(rest('HEAD'), res(404, ''))).toEqual([]);
    expect(kinds(graphql, res(200, { data: { viewer: null }, errors: [{ message: 'Not Found', extensions: { code: 'NOT_FOUND' }, path: ['viewer'] }] }))).toEqual([]);
    expect(kinds(graphql, res(400, { errors: [{ message: 'Cannot query field "x" on type "Query".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] }))).toEqual([]);
  });

  it('flags a 5xx, a body on 304 and an unexpected status', () => {
    expect(kinds(rest(), res(500, gh(500, 'Internal server error')))).toContain('status 500');
    expect(kinds(rest(), res(304, 'x'))).toContain('body on 304');
    expect(kinds(rest(), res(302, ''))).toContain('status 302');
  });

  it.each([
    ['stack frame', '{"message":"x","trace":"at Object.<anonymous> (/srv/app/src/x.ts:10:5)"}'],
    ['source position', '{"message":"failed in alerts.service.js:212"}'],
    ['SQL statement', '{"message":"SELECT \\"a\\".\\"id\\" FROM \\"alerts\\" \\"a\\" WHERE 1"}'],
    ['SQL error', '{"message":"SQLITE_ERROR: no such column: Infinity"}'],
    ['SQL error', '{"message":"invalid input syntax for type integer: \\"abc\\""}'],
    ['SQL error', '{"message":"QueryFailedError"}'],
    ['filesystem path', '{"message":"ENOENT /work/main/data/x"}'],
    ['filesystem path', '{"message":"cannot find node_modules/typeorm"}'],
  ])('flags a leak: %s', (name, body) => {
    expect(leakIn(body)?.name).toBe(name);
    expect(kinds(rest(), res(400, body))).toContain(`leak: ${name}`);
  });

  it('does not count an echo of the request as a leak (the size rule judges echoes)', () => {
    const c = rest('GET', `/repos/acme/${encodeURIComponent('x.ts:1')}`);
    expect(kinds(c, res(404, gh(404, 'x.ts:1 not found')))).toEqual([]);
  });

  it('flags the wrong error shape and oversized errors', () => {
    expect(kinds(rest(), res(414, { error: 'Bad Request', code: 'FST_ERR_MAX_PARAM_LENGTH', message: 'x', statusCode: 414 }))).toContain('shape: documentation_url');
    expect(kinds(rest(), res(400, { ...gh(400), status: '404' }))).toContain('shape: status');
    expect(kinds(rest(), res(400, 'Bad Request', 'text/plain'))).toContain('shape: not JSON');
    expect(kinds(rest(), res(404, gh(404, 'x'.repeat(20_000))))).toContain('error body too large');
    expect(kinds(graphql, res(400, gh(400, 'Problems parsing JSON')))).toContain('shape: 4xx without errors');
    expect(kinds(graphql, res(200, { errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] }))).toContain('code INTERNAL_SERVER_ERROR');
    expect(kinds(graphql, res(400, { errors: [{ message: 'no code' }] }))).toContain('shape: error without extensions.code');
    expect(kinds(graphql, res(200, { errors: [{ message: `x${'y'.repeat(5000)}`, extensions: { code: 'NOT_FOUND' } }] }))).toContain('error too large');
  });

  it('knows the WordPress and AWS JSON error shapes (src/rest/families.ts)', () => {
    const wp = rest('GET', '/calendar/events/v1/events', { oracle: 'wordpress' });
    expect(kinds(wp, res(404, { code: 'rest_no_route', message: 'No route', data: { status: 404 } }))).toEqual([]);
    expect(kinds(wp, res(404, gh(404)))).toContain('shape: code/message');
    const aws = rest('POST', '/', { oracle: 'aws' });
    expect(kinds(aws, res(400, { __type: 'ValidationException', message: 'x' }, 'application/x-amz-json-1.0'))).toEqual([]);
    expect(kinds(aws, res(400, gh(400), 'application/x-amz-json-1.0'))).toContain('shape: __type/message');
  });

  it('flags URLs built from a foreign Host header', () => {
    const c: FuzzCase = { ...rest(), kind: 'transport', oracle: 'any', request: { method: 'GET', target: '/repos/acme/api', headers: { host: 'evil.example' } } };
    expect(kinds(c, res(200, { url: 'http://127.0.0.1:4000/repos/acme/api' }))).toEqual([]);
    expect(kinds(c, res(200, { url: 'http://evil.example/repos/acme/api' }))).toContain('URL from Host header');
  });
});
