/**
 * "A task of activity N was scheduled", across processes, so a GetActivityTask parked on another instance wakes
 * at once: Redis pub/sub when REDIS_URL is set, else PostgreSQL LISTEN/NOTIFY on a PostgreSQL database (SQLite is
 * one machine's file: its processes rely on the polls' periodic re-check). Best effort: the re-check of
 * activity-polls.ts finds whatever a lost message did not announce.
 */
import type * as Pg from 'pg';
import type { AppDeps } from '../../../context';
import { closeRedis, REDIS_CLIENT_DEFAULTS } from '../../../db/redis';
import type { ActivityPolls } from '../activity-polls';

const CHANNEL = 'workflow_activity_tasks';

export interface ActivitySignals {
  close(): Promise<void>;
}

/** A message is this process's id and the activity id: a process ignores its own messages (it woke its polls). */
export function startActivitySignals(deps: AppDeps, polls: ActivityPolls): ActivitySignals {
  const self = Math.random().toString(36).slice(2, 10);
  const onMessage = (text: string) => {
    const [from, id] = text.split(':');
    const n = Number(id);
    if (from !== self && Number.isSafeInteger(n) && n > 0) polls.received(n);
  };
  const warn = (err: unknown) => deps.log.warn({ err: { message: (err as Error)?.message } }, 'workflow: activity task signals unavailable (polls re-check periodically)');
  // The clients are required by the branch that uses them: a SQLite gateway without Redis loads neither pg nor ioredis.
  if (deps.config.redisUrl) {
    const Redis = (require('ioredis') as typeof import('ioredis')).default;
    const channel = `${deps.config.workflowQueuePrefix}:${CHANNEL}`;
    const sub = new Redis(deps.config.redisUrl, { ...REDIS_CLIENT_DEFAULTS, lazyConnect: false, maxRetriesPerRequest: null });
    const pub = new Redis(deps.config.redisUrl, { ...REDIS_CLIENT_DEFAULTS, lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    sub.on('error', warn);
    pub.on('error', () => undefined);
    sub.on('message', (_c: string, m: string) => onMessage(m));
    sub.subscribe(channel).catch(warn);
    polls.publish = (activityId) => void pub.publish(channel, `${self}:${activityId}`).catch(() => undefined);
    return {
      async close() {
        polls.publish = undefined;
        await Promise.all([closeRedis(sub), closeRedis(pub)]);
      },
    };
  }
  const url = (deps.dataSource.options as { url?: string }).url;
  if (deps.dataSource.options.type === 'postgres' && url) {
    const { Client } = require('pg') as typeof Pg;
    let client: Pg.Client | undefined;
    let closed = false;
    const connect = async () => {
      const c = new Client({ connectionString: url });
      c.on('error', (err) => {
        warn(err);
        client = undefined;
        // Reconnect after a pause; the polls' re-check covers the gap.
        if (!closed) setTimeout(() => void connect().catch(warn), 2000).unref();
      });
      c.on('notification', (n) => {
        if (n.channel === CHANNEL && n.payload) onMessage(n.payload);
      });
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      if (closed) await c.end().catch(() => undefined);
      else client = c;
    };
    void connect().catch(warn);
    polls.publish = (activityId) =>
      void deps.dataSource.query('SELECT pg_notify($1, $2)', [CHANNEL, `${self}:${activityId}`]).catch(() => undefined);
    return {
      async close() {
        closed = true;
        polls.publish = undefined;
        await client?.end().catch(() => undefined);
      },
    };
  }
  return { close: async () => undefined };
}
