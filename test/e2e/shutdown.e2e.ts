/**
 * Graceful shutdown of the real process: on SIGTERM it stops accepting connections, lets the request in
 * flight finish, closes the database and exits 0.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startTestApp } from '../helpers/app';
import { createTestDatabaseConfig, testDialect } from '../helpers/db';
import { startServerProcess } from '../helpers/process';

function dbEnv(database: { type: string; path?: string; url?: string }): string {
  return database.type === 'sqlite' ? `sqlite:${database.path}` : database.url!;
}

describe('graceful shutdown', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s: the request in flight completes, new connections are refused, exit code 0', async (signal) => {
    let database: { type: string; path?: string; url?: string };
    let drop = async () => undefined as void;
    if (testDialect() === 'sqlite') {
      database = { type: 'sqlite', path: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gw-shutdown-')), 'db.sqlite') };
    } else {
      const tmp = await createTestDatabaseConfig();
      database = tmp.database;
      drop = tmp.drop;
    }
    const server = await startServerProcess({ DATABASE_URL: dbEnv(database), SEED_DEMO: 'false', LOG_LEVEL: 'info' });
    try {
      const { port } = new URL(server.url);
      const body = JSON.stringify({ query: '{ __typename }' });
      const socket = net.connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      let response = '';
      socket.on('data', (d) => (response += d));
      const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      // Headers and half of the body: the request is now in flight.
      socket.write(
        `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
          body.slice(0, 10),
      );
      await new Promise((r) => setTimeout(r, 200));
      server.child.kill(signal);
      // Wait until the server stopped listening.
      const deadline = Date.now() + 10_000;
      let refused = false;
      while (Date.now() < deadline && !refused) {
        refused = await new Promise<boolean>((resolve) => {
          const probe = net.connect(Number(port), '127.0.0.1');
          probe.once('connect', () => {
            probe.destroy();
            resolve(false);
          });
          probe.once('error', () => resolve(true));
        });
        if (!refused) await new Promise((r) => setTimeout(r, 50));
      }
      expect(refused).toBe(true);
      // Finish the in-flight request: it must still be answered.
      socket.write(body.slice(10));
      await ended;
      if (!/^HTTP\/1\.1 200 /.test(response)) console.log(server.stdout().split("\n").filter((l) => l.includes("level\":50") || l.includes("level\":40")).join("\n"));
      expect(response).toMatch(/^HTTP\/1\.1 200 /);
      expect(response).toContain('{"data":{"__typename":"Query"}}');
      expect(await server.exited).toBe(0);
      expect(server.stdout()).toContain('shutdown complete');
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await drop();
    }
  });
});

/** The timers, sockets and other handles that keep this process alive, as counts per kind. */
function aliveCounts(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) out[kind] = (out[kind] ?? 0) + 1;
  return out;
}

/** What is alive now and was not before (kinds whose count grew, by how much). */
function aliveSince(before: Record<string, number>): Record<string, number> {
  const grown: Record<string, number> = {};
  for (const [kind, n] of Object.entries(aliveCounts())) if (n > (before[kind] ?? 0)) grown[kind] = n - (before[kind] ?? 0);
  return grown;
}

describe('close() with Redis', () => {
  const reachable = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  // Closed right after it started (its Redis clients still connecting or in their ready check), after it settled,
  // and with Redis unreachable (its clients between reconnects). Nothing may keep the process alive afterwards:
  // a leftover timer held jest's worker past its exit ("failed to exit gracefully") and a real process past its
  // shutdown. The check runs after a 150 ms timer made after close() fires, so any timer of 150 ms or less that
  // close() left has fired by then.
  it.each([
    ['just started', reachable, 0],
    ['settled', reachable, 300],
    ['Redis unreachable', 'redis://127.0.0.1:1', 300],
  ])('%s: nothing is left running', async (_name, url, settleMs) => {
    const before = aliveCounts();
    const t = await startTestApp({ env: { REDIS_URL: url as string } });
    await new Promise((r) => setTimeout(r, settleMs as number));
    await t.close();
    await new Promise((r) => setTimeout(r, 150));
    expect(aliveSince(before)).toEqual({});
  });
});
