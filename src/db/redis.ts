/**
 * Optional Redis (REDIS_URL) for state that several instances must share. Connection problems are
 * reported by /readyz, never crash the process.
 */
import Redis from 'ioredis';
import type { Logger } from 'pino';

export interface RedisLike {
  ping(): Promise<string>;
  quit(): Promise<unknown>;
  client: Redis;
}

export async function createRedis(url: string, log: Logger): Promise<RedisLike> {
  const client = new Redis(url, {
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
    // quit() waits for a connection that may never come; disconnect() also stops reconnecting.
    quit: async () => {
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}
