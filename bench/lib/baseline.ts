/**
 * The floor the gateway is compared against: plain node:http, the database driver itself (better-sqlite3
 * or pg, no ORM), hand-written SQL, JSON.stringify straight into the response. It runs in the same process
 * as the gateway, on the same database, and serves the same data.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import type { DatabaseConfig } from '../../src/config';
import { BaselineHandler, BaselineRequest, Dialect, HttpRequestSpec } from './types';

export interface BaselineDb {
  dialect: Dialect;
  /**
   * Run one hand-written statement and return its rows. `?` placeholders (numbered for PostgreSQL);
   * `name` identifies the statement (prepared once: a better-sqlite3 Statement or a named pg statement).
   */
  all<T = Record<string, unknown>>(name: string, sql: string, params: unknown[]): Promise<T[]>;
  /** Statements run so far (the bench reads it around one request to report SQL per request). */
  statements: number;
  close(): Promise<void>;
}

/**
 * A timestamp column as either driver returns it: a Date from pg (timestamp read as UTC, the bench runs
 * with TZ=UTC), or SQLite's datetime text ('YYYY-MM-DD HH:MM:SS.SSS', UTC without a zone).
 */
export function sqlDate(v: unknown): Date {
  if (v instanceof Date) return v;
  const s = String(v);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(' ', 'T')}Z`);
}

function toPgPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export function openBaselineDb(database: DatabaseConfig): BaselineDb {
  if (database.type === 'sqlite') {
    const db = new Database(database.path, { fileMustExist: database.path !== ':memory:' });
    db.pragma('busy_timeout = 5000');
    const prepared = new Map<string, Database.Statement>();
    const api: BaselineDb = {
      dialect: 'sqlite',
      statements: 0,
      async all<T>(name: string, sql: string, params: unknown[]) {
        let stmt = prepared.get(name);
        if (!stmt) {
          stmt = db.prepare(sql);
          prepared.set(name, stmt);
        }
        api.statements++;
        return stmt.all(...params) as T[];
      },
      async close() {
        db.close();
      },
    };
    return api;
  }
  const pool = new Pool({ connectionString: database.url, max: 10, options: '-c timezone=UTC' });
  const texts = new Map<string, string>();
  const api: BaselineDb = {
    dialect: 'postgres',
    statements: 0,
    async all<T>(name: string, sql: string, params: unknown[]) {
      let text = texts.get(name);
      if (text === undefined) {
        text = toPgPlaceholders(sql);
        texts.set(name, text);
      }
      api.statements++;
      const res = await pool.query({ name: `bench_${name}`, text, values: params });
      return res.rows as T[];
    },
    async close() {
      await pool.end();
    },
  };
  return api;
}

export interface BaselineRoute {
  method: string;
  pathname: string;
  handler: BaselineHandler;
}

export interface BaselineServer {
  url: string;
  close(): Promise<void>;
}

export function routeOf(spec: HttpRequestSpec): { method: string; pathname: string } {
  return { method: spec.method, pathname: new URL(spec.path, 'http://baseline').pathname };
}

export async function startBaselineServer(db: BaselineDb, routes: BaselineRoute[]): Promise<BaselineServer> {
  const table = new Map<string, BaselineHandler>();
  for (const r of routes) {
    const key = `${r.method} ${r.pathname}`;
    if (table.has(key)) throw new Error(`baseline route ${key} is defined twice`);
    table.set(key, r.handler);
  }
  const send = (res: http.ServerResponse, status: number, json: unknown) => {
    const body = JSON.stringify(json);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://baseline');
      const handler = table.get(`${req.method} ${url.pathname}`);
      if (!handler) return send(res, 404, { message: 'Not Found' });
      const request: BaselineRequest = {
        method: req.method ?? 'GET',
        url,
        headers: req.headers,
        body: chunks.length ? Buffer.concat(chunks).toString('utf8') : '',
      };
      Promise.resolve()
        .then(() => handler(request, db))
        .then(
          (r) => send(res, r.status, r.json),
          (e: unknown) => send(res, 500, { message: e instanceof Error ? e.message : String(e) }),
        );
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A baseline's token-and-organization access row (the org-repositories and dashboard floors). On SQLite the
 * organization comes as one JSON value `org` ([id, login, role] or NULL: its scalar-subquery form reads the token by
 * its index); `orgAccess` spreads it into the columns PostgreSQL's JOIN form answers.
 */
export interface OrgAccessRow {
  user_id: number;
  is_user: number | null;
  kind?: string;
  scopes: string | null;
  expires_at: unknown;
  org?: string | null;
  org_id?: number | null;
  org_login?: string | null;
  role?: string | null;
}

export function orgAccess<R extends OrgAccessRow>(row: R): R {
  if (row.org === undefined) return row;
  const org = row.org === null ? null : (JSON.parse(row.org) as [number, string, string | null]);
  return { ...row, org_id: org?.[0] ?? null, org_login: org?.[1] ?? null, role: org?.[2] ?? null };
}
