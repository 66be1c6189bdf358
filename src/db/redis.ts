/**
 * Optional Redis (REDIS_URL) for state that several instances must share. Connection problems are
 * reported by /readyz, never crash the process.
 */
import type Redis from 'ioredis';
import type { Logger } from 'pino';

export interface RedisLike {
  ping(): Promise<string>;
  quit(): Promise<unknown>;
  client: Redis;
}

export async function createRedis(url: string, log: Logger): Promise<RedisLike> {
  // Required when used: a gateway without REDIS_URL (and every test file starting one) does not load ioredis.
  const Client = (require('ioredis') as typeof import('ioredis')).default;
  const client = new Client(url, {
    ...REDIS_CLIENT_DEFAULTS,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 5000),
  });
  client.on('error', (err) => log.warn({ err: { message: err.message } }, 'redis error'));
  try {
    await client.connect();
  } catch (err) {
    log.warn({ err: { message: (err as Error).message } }, 'redis not reachable at start; /readyz reports it');
  }
  return {
    client,
    ping: () => client.ping(),
    quit: () => closeRedis(client),
  };
}

/**
 * Options every Redis client of the gateway is made with. ioredis waits `disconnectTimeout` (2 s by default) for a
 * socket to close after a disconnect before destroying it, on a timer that keeps the process alive; a client
 * disconnected while connecting, during its ready check or between reconnects leaves that timer behind even though
 * its socket is gone. A disconnect is abrupt by definition (quit() is the graceful close), so no wait is needed.
 */
export const REDIS_CLIENT_DEFAULTS = { disconnectTimeout: 100 } as const;

/** Closes a client for good: quit() when it is ready, else disconnect() (quit() would wait for a connection that may never come; disconnect() also stops reconnecting). */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
  else if (client.status !== 'end') client.disconnect();
}
