/**
 * Start the real server on an ephemeral port over a throwaway database.
 */
import type { Logger } from 'typeorm';
import { AppConfig, loadConfig } from '../../src/config';
import { createLogger } from '../../src/observability/logger';
import { App, createApp } from '../../src/server';
import { openTestDatabase, TestDatabase } from './db';

export interface TestApp {
  app: App;
  url: string;
  db: TestDatabase;
  config: AppConfig;
  /** Log lines the server wrote (JSON objects). */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startTestApp(
  opts: { env?: Record<string, string>; logger?: Logger; db?: TestDatabase; keepDb?: boolean } = {},
): Promise<TestApp> {
  const db = opts.db ?? (await openTestDatabase({ logger: opts.logger }));
  const config: AppConfig = {
    ...loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...opts.env }),
    database: db.database,
  };
  const logs: Array<Record<string, unknown>> = [];
  const logger = createLogger(config.logLevel, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const app = await createApp(config, { dataSource: db.dataSource, logger });
  const url = await app.listen();
  // URLs the API returns point at this server.
  app.config.publicUrl = opts.env?.PUBLIC_URL ?? url;
  return {
    app,
    url,
    db,
    config: app.config,
    logs,
    async close() {
      await app.close();
      if (!opts.keepDb) await db.drop();
    },
  };
}

/** POST a GraphQL operation; returns status and parsed body. */
export async function gql<T = any>(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  token?: string,
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; body: { data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown>; path?: unknown[] }> } }> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...extraHeaders },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as never };
}
