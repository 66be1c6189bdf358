/**
 * PostGraphile 5 over the bench's own PostgreSQL database, in the bench process, as a peer to compare with
 * (`BENCH_POSTGRAPHILE=1`, PostgreSQL only). It serves the seeded schema as PostGraphile does out of the box (the
 * Amber preset, grafserv on node:http, production mode, no GraphiQL), plus smart tags for what TypeORM's migrations
 * declare as unique indexes or plain integer columns rather than constraints (PostGraphile's documented way to
 * describe them): `accounts.login_lower` is unique, and an alert's assignee and first location are foreign keys.
 *
 * A request with an `Authorization: Bearer` header is checked the way a PostGraphile deployment checks an opaque
 * token: the grafast `context` callback looks the token's SHA-256 up in `access_tokens` (one prepared statement, as
 * the baseline's viewer check) and refuses an unknown, revoked or expired one. Without the header nothing is checked
 * (the "no token check" figure). The token's user is not passed to PostgreSQL (`pgSettings`): no row-level security
 * exists to read it, and it would cost PostGraphile a transaction per request.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';

export interface PostGraphileServer {
  url: string;
  version: string;
  close(): Promise<void>;
}

const TOKEN_SQL = `SELECT u.id AS id, t.expires_at AS expires_at FROM access_tokens t JOIN accounts u ON u.id = t.user_id
  WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND u.type = 'User'`;

class TokenRefused extends Error {}

/**
 * PostGraphile 5 declares Node >= 22; of what Node 22 adds it calls `Promise.withResolvers` (ES2024: grafast,
 * grafserv, @dataplan/pg), which Node 20 lacks. Installed here, as the specification defines it, only when the bench
 * starts PostGraphile (BENCH_POSTGRAPHILE=1) and only when missing.
 */
function providePromiseWithResolvers(): void {
  const P = Promise as unknown as { withResolvers?: unknown };
  if (typeof P.withResolvers === 'function') return;
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers<T>(this: PromiseConstructor) {
      let resolve!: (v: T | PromiseLike<T>) => void;
      let reject!: (e?: unknown) => void;
      const promise = new this<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

export async function startPostGraphile(connectionString: string): Promise<PostGraphileServer> {
  // Production mode without the console's advice about GRAPHILE_ENV.
  process.env.GRAPHILE_ENV ??= 'production';
  providePromiseWithResolvers();
  const { postgraphile } = await import('postgraphile');
  const { PostGraphileAmberPreset } = await import('postgraphile/presets/amber');
  const { makePgService } = await import('postgraphile/adaptors/pg');
  const { grafserv } = await import('postgraphile/grafserv/node');
  const { jsonPgSmartTags } = await import('postgraphile/utils');
  const version = (JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve('postgraphile')), '..', 'package.json'), 'utf8')) as { version: string }).version;

  const pool = new Pool({ connectionString, max: 10, options: '-c timezone=UTC' });
  // The bench drops its database at the end; idle clients then see the server end their connection.
  pool.on('error', () => {});
  const tags = jsonPgSmartTags({
    version: 1,
    config: {
      class: {
        accounts: { tags: { unique: 'login_lower' } },
        secret_scanning_alerts: {
          tags: {
            foreignKey: ['(assigned_to_id) references accounts (id)', '(first_location_id) references secret_scanning_locations (id)'],
          },
        },
      },
    },
  });
  const preset = {
    extends: [PostGraphileAmberPreset],
    plugins: [tags],
    pgServices: [makePgService({ pool, schemas: ['public'] })],
    grafserv: { graphqlPath: '/graphql', graphiql: false, watch: false },
    grafast: {
      explain: false,
      async context(requestContext: { node?: { req: http.IncomingMessage } }) {
        const header = requestContext.node?.req.headers.authorization;
        if (header === undefined) return {};
        const m = /^(bearer|token)\s+(\S+)$/i.exec(header.trim());
        if (!m) throw new TokenRefused('Bad credentials');
        const hash = createHash('sha256').update(m[2], 'utf8').digest('hex');
        const { rows } = await pool.query<{ id: number; expires_at: Date | null }>({ name: 'pgl_token', text: TOKEN_SQL, values: [hash] });
        const row = rows[0];
        if (!row || (row.expires_at !== null && row.expires_at.getTime() <= Date.now())) throw new TokenRefused('Bad credentials');
        return { viewerId: Number(row.id) };
      },
    },
  } as unknown as Parameters<typeof postgraphile>[0];
  const pgl = postgraphile(preset);
  const serv = pgl.createServ(grafserv);
  const server = http.createServer();
  server.keepAliveTimeout = 65_000;
  await serv.addTo(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    version,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await serv.release(); // releases the PostGraphile instance too
      await pool.end();
    },
  };
}
