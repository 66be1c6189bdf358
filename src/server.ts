/**
 * createApp(config): one Fastify server with
 *   POST/GET /graphql       the one graph (Apollo Server 5), GraphiQL for browsers (offline)
 *   REST families           every module's rows, in their family's style (GitHub, WordPress, AWS JSON)
 *   GET /healthz, /readyz   process up / database (and Redis, when configured) reachable
 *   GET /metrics            Prometheus
 * for the domains of a module list (src/modules; each brings its entities, services, loaders, resolvers, REST rows,
 * background work and metrics), and a graceful close(): stop accepting, finish in-flight requests, stop the modules'
 * background work, close the database.
 */
import './db/utc';
import 'reflect-metadata';
import Fastify, { LogController, FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { openDatabase } from '../ormconfig';
import { AppConfig, describeConfig } from './config';
import { AppDeps, createContext } from './context';
import { AppError, toAppError, UnauthenticatedError, ValidationError } from './errors/app-error';
import type { ApolloServerPlugin } from '@apollo/server';
import { createApollo, fastifyGraphqlHandler, GraphqlContext } from './graphql/apollo';
import { PLAYGROUND_ASSET_PREFIX, playgroundAsset, playgroundPage } from './graphql/playground';
import { getSchema } from './graphql/schema';
import { createLogger } from './observability/logger';
import { Metrics } from './observability/metrics';
import { REQUEST_CODES } from './errors/codes';
import { graphqlHttpErrors, isGraphqlPath } from './graphql/http-errors';
import { anonymousBodyLimit } from './http-body-limit';
import { normalizeTarget, noteRequestStart, requestLineProblem, requestStartOf } from './http-guard';
import type { ErrorReply, ErrorStyle, IncomingLike } from './rest/family';
import { familyOf } from './rest/families';
import { githubFamily } from './rest/github/family';
import { registerOpenApiDocuments } from './rest/openapi';
import type { RestRoute } from './rest/route-table';
import { routesOf } from './rest/routes';
import { familyBody, registerRoutes, routeErrorReply, withGeneratedRoutes } from './rest/register';
import { FAMILIES } from './rest/families';
import { createServices } from './services';
import { MODULES } from './modules';
import { AnyModule, closeModules, ModuleMetrics, ModuleRunning } from './modules/module';
import { GraphQLError } from 'graphql';
import { createRedis, RedisLike } from './db/redis';
import { installRequestCancellation } from './db/request-cancel';
import { wellFormedJson } from './services/common/decode';
import { RestMemos } from './rest/text-memo';

export interface App {
  fastify: FastifyInstance;
  deps: AppDeps;
  dataSource: DataSource;
  config: AppConfig;
  metrics: Metrics;
  /** Listen on config.port/host (0 = ephemeral). Resolves to the base URL actually bound. */
  listen(): Promise<string>;
  /** Graceful: stop accepting, wait for in-flight requests (up to shutdownTimeoutMs), close DB and Redis. */
  close(): Promise<void>;
}

export interface CreateAppOptions {
  /** Use this DataSource instead of opening one from config (tests). It is closed by app.close(). */
  dataSource?: DataSource;
  /** Use this logger (tests capture logs). */
  logger?: Logger;
  /** The domains to serve (default: the gateway's, src/modules). A given dataSource must hold their tables. */
  modules?: readonly AnyModule[];
  /** The REST route rows to serve (default: every module's). */
  routes?: RestRoute<any, any>[];
  /** More Apollo plugins (tests observe the GraphQL pipeline with one). */
  graphqlPlugins?: ApolloServerPlugin<GraphqlContext>[];
}

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Who answers this request's failures: the GraphQL endpoint (GraphQL's error shape), the family of the route
 * that took it, or the family that claims its path (unknown routes, errors before routing).
 */
function errorStyleOf(req: IncomingLike & { restFamily?: ErrorStyle }): ErrorStyle {
  if (isGraphqlPath(req.url)) return graphqlHttpErrors;
  return req.restFamily ?? familyOf(req);
}

function sendError(reply: FastifyReply, r: ErrorReply, style: ErrorStyle = errorStyleOf(reply.request)): FastifyReply {
  if (r.headers) reply.headers(r.headers);
  return reply.code(r.status).type(style.mediaType).send(familyBody(style, r.body));
}

/** `Authorization: Bearer <expected>`, compared in constant time (both sides hashed to equal lengths). */
function bearerMatches(header: string | undefined, expected: string): boolean {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  const digest = (v: string) => createHash('sha256').update(v, 'utf8').digest();
  // Always compare (against a dummy when the header is malformed), so timing says nothing either way.
  const same = timingSafeEqual(digest(m ? m[1] : ''), digest(expected));
  return Boolean(m) && same;
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

const CLIENT_ERROR_STATUS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout: the request was not received in time'],
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large'],
};

type RawSocket = import('node:net').Socket & {
  /** Node's parser keeps the request whose headers it has read (a stalled body): its path picks the error style. */
  parser?: { incoming?: { url?: string; headers?: FastifyRequest['headers']; complete?: boolean } } | null;
  _httpMessage?: { headersSent?: boolean } | null;
};

/** Fastify's clientErrorHandler: 400/408/431 in the error style of the path asked for, then close. */
function writeClientError(err: NodeJS.ErrnoException, socket: RawSocket, log: Logger): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = CLIENT_ERROR_STATUS[err.code ?? ''] ?? [400, 'Bad request: the request could not be parsed'];
  // The request whose headers Node read (a stalled body), else what the bytes of the last request begun on this
  // connection say (headers too large or stalled, an unparsable head): its path picks the error style.
  const parsed = socket.parser?.incoming;
  const incoming = parsed?.url !== undefined && !parsed.complete ? { url: parsed.url, headers: parsed.headers ?? {} } : (requestStartOf(socket) ?? { url: '/', headers: {} });
  const style = errorStyleOf(incoming);
  const r = style.httpError(status, message);
  const body = style.serialize ? style.serialize(r.body) : JSON.stringify(r.body);
  const extra = Object.entries(r.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  log.warn({ code: err.code, status }, 'client error');
  if (socket.writable && !socket._httpMessage?.headersSent) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Bad Request'}\r\n` +
        `Content-Type: ${style.mediaType}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<App> {
  const log = options.logger ?? createLogger(config.logLevel);
  const modules = options.modules ?? MODULES;
  const dataSource = options.dataSource ?? (await openDatabase(config, { modules }));
  const redis: RedisLike | undefined = config.redisUrl ? await createRedis(config.redisUrl, log) : undefined;
  const metrics = new Metrics();
  const services = createServices({ detectorThreads: config.detectorThreads }, modules);
  // REST answer memos: this app's own, cleared by close().
  const memos = new RestMemos(config.restMemoBytes);
  metrics.registerMemos(() => memos.named());
  const deps: AppDeps = { dataSource, services, config, log, memos };
  const moduleMetrics: ModuleMetrics[] = [];
  for (const m of modules) {
    const observed = m.metrics?.(metrics, services, deps);
    if (observed?.request) moduleMetrics.push(observed);
  }
  // Each module's background work (runners, pollers), in list order; closed in reverse order.
  const running: ModuleRunning[] = [];
  for (const m of modules) {
    const r = await m.start?.(services, deps);
    if (r) running.push(r);
  }

  const fastify = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    // A request's child logger (bound to its request id) only when a line can be written at all: at LOG_LEVEL=silent
    // the app's logger serves every request (nothing reaches the output either way).
    childLoggerFactory: (logger, bindings, opts) => (logger.level === 'silent' ? logger : logger.child(bindings, opts)),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : randomUUID();
    },
    bodyLimit: 10 * 1024 * 1024,
    forceCloseConnections: 'idle',
    // Absolute-form targets are routed by their path; the authority (like Host) is never used.
    rewriteUrl: normalizeTarget,
    // Slow clients: headers and the whole request must arrive in time (408), idle keep-alive sockets close.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      // Node checks the two timeouts above on this interval (default 30 s, which would let a stalled
      // request live up to 30 s past its timeout).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(Math.min(config.headersTimeoutMs, config.requestTimeoutMs || Infinity) / 4))),
    },
    // Errors Node's HTTP layer raises outside a route (parse errors, timeouts): a short answer, no stack.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => writeClientError(err, socket, log),
    // Routing errors (e.g. a malformed percent-encoding in the path): a 400 in the API's style, the path not echoed.
    frameworkErrors(error, req, reply) {
      req.log.warn({ code: error.code }, 'bad request target');
      return sendError(reply, errorStyleOf(req).httpError(400, 'Bad request: the request target is not a valid URL path'));
    },
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: false, ignoreDuplicateSlashes: false },
  });

  // PostgreSQL: a request whose client goes away has its running statements cancelled (src/db/request-cancel.ts;
  // each request's context names its response).
  installRequestCancellation(dataSource);
  // Each request's first bytes are noted, so errors Node raises before a request exists (431, 408 on stalled
  // headers, unparsable heads) are answered in the style of the API the request line names. Registered after
  // Node's own connection listener (the socket then feeds the parser from JS), and ahead of the parser's.
  fastify.server.on('connection', (socket: RawSocket) => {
    socket.prependListener('data', (chunk: Buffer) => noteRequestStart(socket, chunk));
  });
  // Connections above the cap are closed as they arrive (Node's server.maxConnections).
  if (config.maxConnections > 0) fastify.server.maxConnections = config.maxConnections;

  // JSON bodies (and AWS JSON protocol bodies): parsed by Fastify's own JSON parser (prototype poisoning
  // refused), and the exact bytes kept on the request (`rawBody`): a signature (SigV4) covers the payload as sent.
  const keepingRawBody =
    (parse: ReturnType<typeof fastify.getDefaultJsonParser>) =>
    (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
      // GraphQL never needs the bytes again: only REST requests keep them (a body may be up to 10 MB).
      if (!isGraphqlPath(req.url)) req.rawBody = body as Buffer;
      // Strings decoded the same way whatever database stores them (lone surrogates → U+FFFD).
      parse(req, (body as Buffer).toString('utf8'), (err, value) => (err ? done(err) : done(null, wellFormedJson(value))));
    };
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, keepingRawBody(fastify.getDefaultJsonParser('error', 'error')));
  fastify.addContentTypeParser(
    ['application/x-amz-json-1.0', 'application/x-amz-json-1.1'],
    { parseAs: 'buffer' },
    keepingRawBody(fastify.getDefaultJsonParser('error', 'ignore')),
  );
  // Body media types some families read beyond JSON (WordPress: form-encoded bodies). A family that does not
  // read one answers it as an unsupported media type (415 in its style), as before.
  const extraParsers = new Map<string, Map<string, (text: string) => unknown>>();
  for (const f of Object.values(FAMILIES)) {
    for (const [type, parse] of Object.entries(f.bodyParsers ?? {})) {
      if (!extraParsers.has(type)) extraParsers.set(type, new Map());
      extraParsers.get(type)!.set(f.name, parse);
    }
  }
  for (const [type, byFamily] of extraParsers) {
    if (type === 'application/json') throw new Error('rest: a family cannot replace the JSON body parser');
    fastify.addContentTypeParser(type, { parseAs: 'buffer' }, (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
      const parse = isGraphqlPath(req.url) ? undefined : byFamily.get(familyOf(req).name);
      if (!parse) {
        return done(Object.assign(new Error('Unsupported Media Type'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }));
      }
      req.rawBody = body as Buffer;
      try {
        done(null, parse((body as Buffer).toString('utf8')));
      } catch (e) {
        // A bound the parser enforces (parameter count, nesting) is answered as such; anything else is malformed.
        done(e instanceof AppError ? e : Object.assign(new SyntaxError('Malformed body'), { statusCode: 400, cause: e }));
      }
    });
  }

  // ---- request log line + metrics ----
  let shuttingDown = false;
  // Callback-style hooks: an async hook costs Fastify a promise and a microtask per request and hook.
  fastify.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    // AWS JSON requests: the request id where the AWS SDKs read it (`$metadata.requestId`, our client's requestId).
    if (req.headers['x-amz-target'] !== undefined) reply.header('x-amzn-RequestId', req.id);
    // An unusable request target or Host header: 400 before any route runs (one warn line, no stack).
    const problem = requestLineProblem(req.raw);
    if (problem) {
      req.log.warn({ problem }, 'bad request line or Host header');
      sendError(reply, errorStyleOf(req).httpError(400, `Bad request: ${problem}`));
      return;
    }
    done();
  });
  // Requests without a live credential may send small bodies only, refused before the body is read.
  if (config.anonymousBodyLimit > 0) fastify.addHook('preParsing', anonymousBodyLimit(deps, config.anonymousBodyLimit));
  // While shutting down, answers close their keep-alive connection so the server can finish closing.
  fastify.addHook('onSend', (_req, reply, payload, done) => {
    if (shuttingDown) reply.header('connection', 'close');
    done(null, payload);
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    try {
      const route = req.routeOptions.url ?? 'unmatched';
      const status = reply.statusCode;
      const seconds = reply.elapsedTime / 1000;
      metrics.httpRequests.inc({ method: req.method, route, status: String(status) });
      metrics.httpDuration.observe({ method: req.method, route, status: String(status) }, seconds);
      for (const observed of moduleMetrics) observed.request!(req, status, seconds);
      if (!(req.log as unknown as Logger).isLevelEnabled('info')) return;
      const graphql = (req.appContext as GraphqlContext | undefined)?.graphql;
      req.log.info(
        {
          method: req.method,
          path: req.url.split('?')[0].slice(0, 200),
          route,
          operation: graphql?.operationName,
          operationType: graphql?.operationType,
          status,
          durationMs: Math.round(reply.elapsedTime * 100) / 100,
        },
        'request completed',
      );
    } finally {
      done();
    }
  });

  // ---- errors: one mapper per family; GraphQL errors are formatted by Apollo ----
  fastify.setErrorHandler((error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const style = errorStyleOf(req);
    const send = (r: ErrorReply) => sendError(reply, r, style);
    const code = error.code ?? '';
    if (
      code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      (error.statusCode === 400 && error instanceof SyntaxError)
    ) {
      return send(style.malformedBody());
    }
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return send(style.errorReply(new ValidationError('Unsupported media type: send application/json', { domainCode: REQUEST_CODES.MEDIA_TYPE_UNSUPPORTED })));
    }
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return send(style.errorReply(new ValidationError('Request body is too large', { domainCode: REQUEST_CODES.BODY_TOO_LARGE })));
    }
    const app = toAppError(error);
    if (app) {
      return send(req.restFamily && style === req.restFamily ? routeErrorReply(req.restFamily, req.restRoute, app, req.restLanguage) : style.errorReply(app));
    }
    req.log.error({ err: error }, 'unexpected error');
    return send(style.internalError(req.id));
  });

  fastify.setNotFoundHandler(async (req, reply) => {
    const family = familyOf(req);
    req.restFamily = family;
    // A bad token is reported before "not found", as GitHub does (families with their own authentication, such
    // as AWS' SigV4 over a routed request, answer "no such operation" at once).
    if (!family.authenticate) {
      try {
        await createContext(deps, { id: req.id, headers: req.headers, log: req.log, response: reply.raw });
      } catch (e) {
        if (e instanceof UnauthenticatedError) return sendError(reply, family.errorReply(e), family);
      }
    }
    return sendError(reply, family.noRoute(req.method, req.url.split('?')[0]), family);
  });

  // ---- health ----
  fastify.get('/healthz', async () => ({ status: 'ok' }));
  fastify.get('/readyz', async (_req, reply) => {
    const checks: Record<string, string> = {};
    let ok = true;
    try {
      await dataSource.query('SELECT 1');
      checks.database = 'ok';
    } catch {
      checks.database = 'unreachable';
      ok = false;
    }
    if (redis) {
      try {
        await redis.ping();
        checks.redis = 'ok';
      } catch {
        checks.redis = 'unreachable';
        ok = false;
      }
    }
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks });
  });
  fastify.get('/metrics', async (req, reply) => {
    // METRICS_TOKEN set: only a scraper with that bearer token reads the metrics.
    if (config.metricsToken && !bearerMatches(req.headers.authorization, config.metricsToken)) {
      const r = githubFamily.errorReply(new UnauthenticatedError('Requires authentication: send "Authorization: Bearer <METRICS_TOKEN>"'));
      return sendError(reply, { ...r, headers: { ...r.headers, 'www-authenticate': 'Bearer realm="metrics"' } }, githubFamily);
    }
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });

  // ---- GraphQL ----
  const schema = await getSchema(options.modules);
  const apollo = createApollo({ schema, metrics, log, introspection: config.introspection, plugins: options.graphqlPlugins });
  await apollo.start();
  const graphqlHandler = fastifyGraphqlHandler(apollo, {
    context: async (req: FastifyRequest, reply: FastifyReply) => {
      try {
        // createContext answers a fresh object: the GraphQL holder is added to it rather than spread into a copy.
        const ctx: GraphqlContext = await createContext(deps, { id: req.id, headers: req.headers, log: req.log, response: reply.raw });
        ctx.graphql = {};
        req.appContext = ctx;
        return ctx;
      } catch (e) {
        const app = toAppError(e);
        if (app) {
          throw new GraphQLError(app.message, {
            extensions: { code: app.code, http: { status: graphqlHttpErrors.errorReply(app).status } },
          });
        }
        throw e;
      }
    },
  });
  fastify.post('/graphql', graphqlHandler);
  fastify.get('/graphql', async (req, reply) => {
    const accept = String(req.headers.accept ?? '');
    const q = req.query as Record<string, unknown>;
    if (accept.includes('text/html') && q.query === undefined && q.extensions === undefined) {
      const page = playgroundPage({ endpoint: '/graphql' });
      return reply.headers(page.headers).type('text/html; charset=utf-8').send(page.html);
    }
    return graphqlHandler.call(fastify, req, reply);
  });
  fastify.get(`${PLAYGROUND_ASSET_PREFIX}:name`, async (req, reply) => {
    const asset = playgroundAsset((req.params as { name: string }).name);
    if (!asset) return reply.code(404).type('text/plain').send('Not Found');
    return reply.type(asset.type).header('cache-control', 'public, max-age=86400').header('x-content-type-options', 'nosniff').send(asset.body);
  });

  // ---- REST families ----
  const routes = withGeneratedRoutes(options.routes ?? routesOf(modules));
  registerRoutes(fastify, deps, routes);
  // Every family's and module's OpenAPI documents, generated from the same rows.
  registerOpenApiDocuments(fastify, config, routes, modules.flatMap((m) => m.openapi ?? []));

  let closing: Promise<void> | undefined;
  const app: App = {
    fastify,
    deps,
    dataSource,
    config,
    metrics,
    async listen() {
      const address = await fastify.listen({ port: config.port, host: config.host });
      log.info({ config: describeConfig(config), address }, 'gateway listening');
      const port = (fastify.server.address() as { port: number }).port;
      const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
      // With PORT=0 the derived public URL learns the real port.
      if (!config.publicUrlExplicit && config.port === 0) config.publicUrl = `http://${host}:${port}`;
      return `http://${host}:${port}`;
    },
    close() {
      closing ??= (async () => {
        shuttingDown = true;
        const timer = setTimeout(() => {
          log.warn({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown timeout: closing remaining connections');
          fastify.server.closeAllConnections?.();
        }, config.shutdownTimeoutMs);
        timer.unref();
        try {
          await fastify.close();
          await apollo.stop();
        } finally {
          clearTimeout(timer);
          // What modules run in the background stops (latest started first), then what their services hold.
          for (const r of [...running].reverse()) await Promise.resolve(r.close()).catch((err) => log.error({ err }, 'stopping a module failed'));
          await closeModules(modules, services, log);
          memos.close();
          metrics.close();
          if (redis) await redis.quit().catch(() => undefined);
          if (dataSource.isInitialized) await dataSource.destroy();
        }
      })();
      return closing;
    },
  };
  return app;
}
