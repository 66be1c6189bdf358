/**
 * Operation-keyed routing (RPC-style families): several route rows share `POST /` and are told apart by the
 * family's operation header (AWS JSON 1.0: X-Amz-Target). Exercised on the real server with synthetic rows of
 * the AWS family (the workflow domain will be the first real user), plus the OpenAPI of such rows.
 */
import { createHash } from 'node:crypto';
import { NotFoundError, ValidationError } from '../../src/errors/app-error';
import { buildOpenApi } from '../../src/rest/openapi';
import { registerRoutes } from '../../src/rest/register';
import { route, RestRoute } from '../../src/rest/route-table';
import { REST_ROUTES } from '../../src/rest/routes';
import { startTestApp, TestApp } from '../helpers/app';
import { AccessKey, signedHeaders } from '../helpers/sigv4';
import { IdentityFixtures } from '../fixtures/identity';
import Fastify from 'fastify';

const AMZ = 'application/x-amz-json-1.0';

interface EchoInput {
  name: unknown;
  payloadSha256: string | null;
  target: string;
  method: string;
}

/** Two operations on one path; a third that fails in the service's way. */
const rows: RestRoute<any, any>[] = [
  route<EchoInput, { greeting: string; seenByContext: string | null }>({
    family: 'aws',
    method: 'POST',
    path: '/',
    operation: 'TestService.Echo',
    operationId: 'Echo',
    summary: 'Echo the name back, with what a signature would cover',
    requestBody: { type: 'object', properties: { name: { type: 'string' } } },
    input: (req) => ({
      name: (req.body as { name?: unknown } | undefined)?.name,
      payloadSha256: req.rawBody ? createHash('sha256').update(req.rawBody).digest('hex') : null,
      target: req.target,
      method: req.method,
    }),
    handle: async (ctx, i) => {
      if (typeof i.name !== 'string') throw new ValidationError('{{name}} must be a string', { namesFields: true, fieldErrors: [{ field: 'name', code: 'invalid' }] });
      // What a signature check in a service (or in authentication) sees of the request.
      const r = ctx.request;
      const seenByContext = r?.rawBody ? `${r.method} ${r.target} ${createHash('sha256').update(r.rawBody).digest('hex')}` : null;
      return { greeting: `hello ${i.name}`, seenByContext };
    },
    // present() sees the input: no need for handle() to echo it.
    present: (r, _ctx, _req, i) => ({ body: { Greeting: r.greeting, PayloadSha256: i.payloadSha256, Target: i.target, Method: i.method, Context: r.seenByContext } }),
  }),
  route<void, never>({
    family: 'aws',
    method: 'POST',
    path: '/',
    operation: 'TestService.DescribeThing',
    operationId: 'DescribeThing',
    summary: 'Always: the thing does not exist',
    requestBody: { type: 'object' },
    input: () => undefined,
    handle: async () => {
      throw new NotFoundError('Thing does not exist');
    },
    present: () => ({ body: {} }),
  }),
];

describe('operation-keyed routing (AWS JSON family)', () => {
  let t: TestApp;
  let key: AccessKey;
  beforeAll(async () => {
    t = await startTestApp({ routes: [...REST_ROUTES, ...rows] });
    // Every request of the family is SigV4-signed with a workflow access key (src/auth/sigv4.ts).
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user();
    key = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
  });
  afterAll(() => t?.close());

  const call = async (target: string | undefined, body: string, contentType = AMZ) => {
    const headers = await signedHeaders(t.url, { key, target, body, path: '/', contentType });
    delete headers.host;
    return fetch(`${t.url}/`, { method: 'POST', headers, body });
  };

  it('two operations on one path each reach their own row', async () => {
    const payload = '{"name":  "ada"}';
    const echo = await call('TestService.Echo', payload);
    expect(echo.status).toBe(200);
    expect(echo.headers.get('content-type')).toMatch(/^application\/x-amz-json-1\.0/);
    expect(await echo.json()).toEqual({
      Greeting: 'hello ada',
      // The exact bytes sent (two spaces included), as SigV4 hashes them.
      PayloadSha256: createHash('sha256').update(payload).digest('hex'),
      Target: '/',
      Method: 'POST',
      Context: `POST / ${createHash('sha256').update(payload).digest('hex')}`,
    });

    const describe = await call('TestService.DescribeThing', '{}');
    expect(describe.status).toBe(400);
    expect(describe.headers.get('x-amzn-errortype')).toBe('ResourceNotFound');
    expect(await describe.json()).toEqual({ __type: 'ResourceNotFound', message: 'Thing does not exist' });
  });

  it('an unknown or missing target is UnknownOperationException, without echoing megabytes', async () => {
    for (const target of ['TestService.Nope', 'Other.Echo', `TestService.${'x'.repeat(8000)}`]) {
      const r = await call(target, '{}');
      expect(r.status).toBe(400);
      expect(r.headers.get('x-amzn-errortype')).toBe('UnknownOperationException');
      const b = (await r.json()) as { __type: string; message: string };
      expect(b.__type).toBe('UnknownOperationException');
      expect(b.message.length).toBeLessThan(200);
    }
    const none = await fetch(`${t.url}/workflow`, { method: 'POST', headers: { 'content-type': AMZ }, body: '{}' });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { __type: string }).__type).toBe('UnknownOperationException');
  });

  it('service errors and bad bodies answer in the family’s own shape, with the wire names', async () => {
    const bad = await call('TestService.Echo', '{"name": 5}');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ __type: 'ValidationException', message: 'name must be a string' });

    const malformed = await call('TestService.Echo', '{"name":');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { __type: string }).__type).toBe('SerializationException');

    // Plain application/json reaches the same operation (the SDKs send x-amz-json-1.0; curl users send JSON).
    const json = await call('TestService.Echo', '{"name":"bob"}', 'application/json');
    expect(((await json.json()) as { Greeting: string }).Greeting).toBe('hello bob');
  });

  it('GitHub-family routes are untouched by the shared root', async () => {
    const r = await fetch(`${t.url}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    // No X-Amz-Target: still the AWS row's path, so the AWS family answers it.
    expect(r.status).toBe(400);
    const user = await fetch(`${t.url}/user`);
    expect(user.status).toBe(401);
    expect(await user.json()).toMatchObject({ documentation_url: expect.any(String) });
  });
});

describe('OpenAPI of operation-keyed rows', () => {
  const doc = buildOpenApi(rows, { title: 'Test', version: '1', serverUrl: 'https://x.test' });

  it('documents each operation under <path>#<operation> with its X-Amz-Target header and AWS error shapes', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(['/#TestService.DescribeThing', '/#TestService.Echo']);
    const echo = doc.paths['/#TestService.Echo'].post!;
    expect(echo.parameters).toEqual([{ name: 'X-Amz-Target', in: 'header', required: true, description: 'The operation.', schema: { type: 'string', enum: ['TestService.Echo'] } }]);
    expect(Object.keys(echo.requestBody!.content)).toEqual(['application/json', AMZ]);
    expect(echo.responses['400'].content![AMZ].schema).toEqual({ $ref: '#/components/schemas/aws-error' });
    expect(echo.responses['400'].headers).toHaveProperty('x-amzn-ErrorType');
    expect(doc.components.securitySchemes).toHaveProperty('awsSigV4');
  });

  it('refuses rows it cannot tell apart', () => {
    expect(() => buildOpenApi([rows[0], { ...rows[0], operationId: 'Echo2' }], { title: 'T', version: '1', serverUrl: 'https://x' })).toThrow(/two rows for POST \/#TestService\.Echo/);
    const githubWithOperation = { ...rows[0], family: 'github' as const };
    expect(() => buildOpenApi([githubWithOperation], { title: 'T', version: '1', serverUrl: 'https://x' })).toThrow(/routes by path/);
  });

  it('registration refuses ambiguous tables', () => {
    const deps = {} as never;
    expect(() => registerRoutes(Fastify(), deps, [rows[0], { ...rows[0], operationId: 'Again' }])).toThrow(/two rows for operation TestService\.Echo/);
    expect(() => registerRoutes(Fastify(), deps, [{ ...rows[0], operation: undefined }])).toThrow(/needs an operation/);
    const gh = REST_ROUTES[0];
    expect(() => registerRoutes(Fastify(), deps, [gh, { ...gh, operationId: 'dup' }])).toThrow(/routes by path/);
  });
});
