/**
 * createApp(config): one Fastify server with
 *   POST/GET /graphql       the one graph (Apollo Server 5), GraphiQL for browsers (offline)
 *   REST families           GitHub-style (root), WordPress-style (/calendar/...), AWS JSON (X-Amz-Target)
 *   GET /healthz, /readyz   process up / database (and Redis, when configured) reachable
 *   GET /metrics            Prometheus
 * and a graceful close(): stop accepting, finish in-flight requests, close the database.
 */
import './db/utc';
import 'reflect-metadata';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, { LogController, FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { openDatabase } from '../ormconfig';
import { AppConfig, describeConfig } from './config';
import { AppDeps, createContext } from './context';
import { AppError, toAppError, UnauthenticatedError } from './errors/app-error';
import { createApollo, GraphqlContext } from './graphql/apollo';
import { PLAYGROUND_ASSET_PREFIX, playgroundAsset, playgroundHtml } from './graphql/playground';
import { getSchema } from './graphql/schema';
import { createLogger } from './observability/logger';
import { Metrics } from './observability/metrics';
import { ErrorReply, appErrorReply, familyOf, internalErrorReply, malformedBodyReply, notFoundReply } from './rest/families';
import { githubFamilyHooks } from './rest/github/family';
import { registerSecretScanningOpenApi } from './rest/github/secret-scanning.routes';
import { REST_ROUTES } from './rest/routes';
import { registerRoutes } from './rest/register';
import { createServices } from './services';
import { GraphQLError } from 'graphql';
import { createRedis, RedisLike } from './db/redis';

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
}

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

function sendError(reply: FastifyReply, r: ErrorReply): FastifyReply {
  if (r.headers) reply.headers(r.headers);
  const family = reply.request.restFamily ?? familyOf(reply.request);
  const type = family === 'aws' ? 'application/x-amz-json-1.0' : 'application/json; charset=utf-8';
  return reply.code(r.status).type(type).send(r.body);
}

export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<App> {
  const log = options.logger ?? createLogger(config.logLevel);
  const dataSource = options.dataSource ?? (await openDatabase(config));
  const redis: RedisLike | undefined = config.redisUrl ? await createRedis(config.redisUrl, log) : undefined;
  const metrics = new Metrics();
  const services = createServices({ detectorThreads: config.detectorThreads });
  const interrupted = await services.secretScanningPush.failInterruptedScans(dataSource.manager);
  if (interrupted) log.warn({ scans: interrupted }, 'secret scans left in_progress by a previous run marked failed');
  const deps: AppDeps = { dataSource, services, config, log };

  const fastify = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : randomUUID();
    },
    bodyLimit: 10 * 1024 * 1024,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: false, ignoreDuplicateSlashes: false },
  });

  // AWS JSON protocol bodies.
  fastify.addContentTypeParser(
    ['application/x-amz-json-1.0', 'application/x-amz-json-1.1'],
    { parseAs: 'string' },
    fastify.getDefaultJsonParser('error', 'ignore'),
  );

  // ---- request log line + metrics ----
  let shuttingDown = false;
  fastify.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // While shutting down, answers close their keep-alive connection so the server can finish closing.
  fastify.addHook('onSend', async (_req, reply) => {
    if (shuttingDown) reply.header('connection', 'close');
  });
  fastify.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const seconds = reply.elapsedTime / 1000;
    metrics.httpRequests.inc({ method: req.method, route, status: String(status) });
    metrics.httpDuration.observe({ method: req.method, route, status: String(status) }, seconds);
    const graphql = (req.appContext as GraphqlContext | undefined)?.graphql;
    req.log.info(
      {
        method: req.method,
        path: req.url.split('?')[0],
        route,
        operation: graphql?.operationName,
        operationType: graphql?.operationType,
        status,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
  });

  // ---- errors: one mapper per family; GraphQL errors are formatted by Apollo ----
  fastify.setErrorHandler((error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const family = req.restFamily ?? familyOf(req);
    const code = error.code ?? '';
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (error.statusCode === 400 && error instanceof SyntaxError)) {
      return sendError(reply, malformedBodyReply(family));
    }
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendError(reply, appErrorReply(family, new (class extends AppError {
        readonly code = 'BAD_USER_INPUT' as const;
        readonly httpStatus = 415;
      })('Unsupported media type: send application/json')));
    }
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(reply, { ...appErrorReply(family, new (class extends AppError {
        readonly code = 'BAD_USER_INPUT' as const;
        readonly httpStatus = 413;
      })('Request body is too large')) });
    }
    const app = toAppError(error);
    if (app) return sendError(reply, appErrorReply(family, app));
    req.log.error({ err: error }, 'unexpected error');
    return sendError(reply, internalErrorReply(family, req.id));
  });

  fastify.setNotFoundHandler(async (req, reply) => {
    const family = familyOf(req);
    req.restFamily = family;
    // A bad token is reported before "not found", as GitHub does.
    try {
      await createContext(deps, { id: req.id, headers: req.headers, log: req.log });
    } catch (e) {
      if (e instanceof UnauthenticatedError) return sendError(reply, appErrorReply(family, e));
    }
    return sendError(reply, notFoundReply(family, req.method, req.url.split('?')[0]));
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
  fastify.get('/metrics', async (_req, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });

  // ---- GraphQL ----
  const schema = await getSchema();
  const apollo = createApollo({ schema, metrics, log, introspection: config.introspection });
  await apollo.start();
  const graphqlHandler = fastifyApolloHandler(apollo, {
    context: async (req: FastifyRequest) => {
      try {
        const ctx: GraphqlContext = { ...(await createContext(deps, { id: req.id, headers: req.headers, log: req.log })), graphql: {} };
        req.appContext = ctx;
        return ctx;
      } catch (e) {
        const app = toAppError(e);
        if (app) {
          throw new GraphQLError(app.message, {
            extensions: { code: app.code, http: { status: app.status } },
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
      return reply.type('text/html; charset=utf-8').send(playgroundHtml({ endpoint: '/graphql' }));
    }
    return graphqlHandler.call(fastify, req, reply);
  });
  fastify.get(`${PLAYGROUND_ASSET_PREFIX}:name`, async (req, reply) => {
    const asset = playgroundAsset((req.params as { name: string }).name);
    if (!asset) return reply.code(404).type('text/plain').send('Not Found');
    return reply.type(asset.type).header('cache-control', 'public, max-age=86400').send(asset.body);
  });

  // ---- REST families ----
  registerRoutes(fastify, deps, REST_ROUTES, { github: githubFamilyHooks });
  // GET /openapi/secret-scanning.json, generated from the same route table rows.
  registerSecretScanningOpenApi(fastify, config, REST_ROUTES);

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
          // Background rescans are cancelled and marked failed; the detector's threads end.
          await services.secretScanningPush.close().catch((err) => log.error({ err }, 'closing the secret detector failed'));
          if (redis) await redis.quit().catch(() => undefined);
          if (dataSource.isInitialized) await dataSource.destroy();
        }
      })();
      return closing;
    },
  };
  return app;
}
