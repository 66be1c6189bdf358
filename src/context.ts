/**
 * One request context for GraphQL and REST alike: request id, viewer, database, fresh loaders, services.
 */
import type { RestMemos } from './rest/text-memo';
import type { FastifyBaseLogger } from 'fastify';
import type { DataSource, EntityManager } from 'typeorm';
import { authenticateBearer } from './auth/authenticate';
import { ANONYMOUS, Viewer } from './auth/viewer';
import type { AppConfig } from './config';
import type { Language } from './i18n';
import { requestDataSource } from './db/request-cancel';
import type { ServerResponse } from 'node:http';
import { writeTransaction, type WriteTransactionOptions } from './db/transaction';
import type { Loaders } from './loaders';
import { clearLoaders, loadersLike, loadersOf } from './loaders/loader';
import { modulesOf } from './modules/module';
import type { Services } from './services';

/** pino's logger as Fastify types it (request loggers carry the request id). */
export type AppLogger = FastifyBaseLogger;

export interface RequestContext {
  requestId: string;
  viewer: Viewer;
  /** The entity manager to use (a transaction's, inside `withTransaction`). */
  db: EntityManager;
  dataSource: DataSource;
  loaders: Loaders;
  services: Services;
  config: AppConfig;
  log: AppLogger;
  /** The app's REST answer memos (see AppDeps.memos). */
  memos?: RestMemos;
  /**
   * The HTTP request as sent, for what must see it unchanged (request signatures such as SigV4 cover the
   * method, the target, the headers and the exact body bytes). Absent for in-process callers.
   */
  request?: HttpRequestFacts;
  /**
   * The content language the client chose (WordPress family: `i18n_language`), set by the REST family
   * machinery; undefined = the original content language. Reads return that translation, writes store into it,
   * and error messages are answered in it.
   */
  language?: Language;
}

export interface HttpRequestFacts {
  method: string;
  /** Path and query exactly as the client sent them (origin-form). */
  target: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body bytes as received; undefined without a body. */
  rawBody?: Buffer;
  /** Aborted when the client goes away before the answer (long polls stop waiting). */
  signal?: AbortSignal;
}

export interface AppDeps {
  dataSource: DataSource;
  /** Made by createServices from the app's module list (whose loaders each request gets). */
  services: Services;
  config: AppConfig;
  log: AppLogger;
  /** The app's REST answer memos (createApp's; absent for in-process callers, which keep nothing). */
  memos?: RestMemos;
}

/** What createContext needs of an incoming request, whatever the HTTP framework. */
export interface IncomingRequestLike {
  id: string;
  headers: Record<string, string | string[] | undefined>;
  log?: AppLogger;
  /** The request as sent (REST routes pass it; see RequestContext.request). */
  http?: HttpRequestFacts;
  /** The content language the request chose (see RequestContext.language). */
  language?: Language;
  /** The response being made: its statements stop if its client goes away (src/db/request-cancel.ts). */
  response?: ServerResponse;
}

export function headerValue(headers: IncomingRequestLike['headers'], name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** Build the context for one request. Throws UnauthenticatedError for a bad token. */
export async function createContext(deps: AppDeps, request: IncomingRequestLike, viewer?: Viewer): Promise<RequestContext> {
  const dataSource = request.response ? requestDataSource(deps.dataSource, request.response) : deps.dataSource;
  const resolvedViewer = viewer ?? (await authenticateBearer(dataSource, headerValue(request.headers, 'authorization')));
  const ctx = contextFor(deps, request.id, resolvedViewer, request.log, dataSource);
  if (request.http) ctx.request = request.http;
  if (request.language) ctx.language = request.language;
  return ctx;
}

/** A context for in-process callers (CLI, seeding, tests). */
export function contextFor(
  deps: AppDeps,
  requestId: string,
  viewer: Viewer = ANONYMOUS,
  log?: AppLogger,
  dataSource: DataSource = deps.dataSource,
): RequestContext {
  const db = dataSource.manager;
  return {
    requestId,
    viewer,
    db,
    dataSource,
    loaders: loadersOf(modulesOf(deps.services), db, viewer.kind === 'user' ? viewer.user.id : undefined) as Loaders,
    services: deps.services,
    config: deps.config,
    log: log ?? deps.log,
    memos: deps.memos,
  };
}

/**
 * A context of the same app as `ctx` for another viewer and request id (a workflow task acting as the execution's
 * starter): fresh loaders, no HTTP request, no REST answer memos.
 */
export function contextOfApp(ctx: RequestContext, requestId: string, viewer: Viewer): RequestContext {
  return contextFor({ dataSource: ctx.dataSource, services: ctx.services, config: ctx.config, log: ctx.log }, requestId, viewer);
}

/**
 * Run `fn` in a write transaction with a child context bound to it (fresh loaders see the transaction's
 * writes; the request's own loaders are cleared once it ends). Every read-modify-write goes through here: see src/db/transaction.ts (BEGIN IMMEDIATE and one
 * writer per process on SQLite, `SELECT … FOR UPDATE` via `lockedFindOne` on PostgreSQL, bounded retry of
 * a busy database, then 503). Inside a transaction it joins that transaction.
 */
export async function withTransaction<T>(ctx: RequestContext, fn: (tx: RequestContext) => Promise<T>, opts?: WriteTransactionOptions): Promise<T> {
  try {
    return await writeTransaction(
      ctx.db,
      async (manager) =>
        manager === ctx.db ? fn(ctx) : fn({ ...ctx, db: manager, loaders: loadersLike(ctx.loaders, manager, ctx.viewer.kind === 'user' ? ctx.viewer.user.id : undefined) }),
      opts,
    );
  } finally {
    // What the request's loaders cached before the write may be stale now: later reads go to the database.
    clearLoaders(ctx.loaders);
  }
}
