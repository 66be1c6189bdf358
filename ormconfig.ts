/**
 * DataSource from config: no DATABASE_URL -> better-sqlite3 file data/gateway.sqlite (WAL);
 * sqlite:<path> -> that file (sqlite::memory: for a throwaway one); postgres:// -> PostgreSQL.
 * Migrations exist for both dialects and run at start; `synchronize` is never used.
 */
import './src/db/utc';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DataSource, DataSourceOptions, Logger } from 'typeorm';
import { entitiesOf } from './entities';
import { AppConfig, DatabaseConfig } from './src/config';
import { MODULES } from './src/modules';
import type { AnyModule } from './src/modules/module';

export interface DataSourceExtras {
  /** TypeORM logger (tests use it to count SQL statements). */
  logger?: Logger;
  /** The modules whose entities and migrations make the schema (default: the gateway's, src/modules). */
  modules?: readonly AnyModule[];
}

/** The migrations of a module list for one dialect (TypeORM runs them in timestamp order). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function migrationsOf(modules: readonly AnyModule[], dialect: 'sqlite' | 'postgres'): Function[] {
  return modules.flatMap((m) => m.migrations[dialect]);
}

/**
 * Pages read as one value order their rows with an ORDER BY inside `group_concat` (list-query.ts `rowsAsJson`),
 * which SQLite has since 3.44; better-sqlite3 bundles its own SQLite, so a build against an older one fails here.
 */
export function checkSqliteOrderedAggregates(version: string): void {
  const [major, minor] = version.split('.').map(Number);
  if (!(major > 3 || (major === 3 && minor >= 44))) {
    throw new Error(`SQLite ${version} is too old: ORDER BY inside aggregates needs SQLite 3.44 or later (better-sqlite3 bundles one)`);
  }
}

export function buildDataSourceOptions(database: DatabaseConfig, extras: DataSourceExtras = {}): DataSourceOptions {
  const modules = extras.modules ?? MODULES;
  const common = {
    entities: entitiesOf(modules),
    synchronize: false,
    migrationsRun: false,
    logging: extras.logger ? ('all' as const) : false,
    logger: extras.logger,
  };
  if (database.type === 'sqlite') {
    if (database.path !== ':memory:') {
      fs.mkdirSync(path.dirname(path.resolve(database.path)), { recursive: true });
    }
    return {
      ...common,
      type: 'better-sqlite3',
      database: database.path,
      migrations: migrationsOf(modules, 'sqlite'),
      enableWAL: database.path !== ':memory:',
      prepareDatabase: (db: { pragma(s: string): unknown; prepare(sql: string): { get(): unknown } }) => {
        checkSqliteOrderedAggregates((db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v);
        db.pragma('foreign_keys = ON');
        db.pragma('busy_timeout = 5000');
        db.pragma('synchronous = NORMAL');
      },
    };
  }
  return {
    ...common,
    type: 'postgres',
    url: database.url,
    migrations: migrationsOf(modules, 'postgres'),
    extra: { max: 10, options: '-c timezone=UTC', connectionTimeoutMillis: 5000 },
  };
}

export function createDataSource(config: Pick<AppConfig, 'database'>, extras: DataSourceExtras = {}): DataSource {
  return new DataSource(buildDataSourceOptions(config.database, extras));
}

/** Initialize and bring the schema up to date (runs pending migrations). */
export async function openDatabase(config: Pick<AppConfig, 'database'>, extras: DataSourceExtras = {}): Promise<DataSource> {
  const ds = createDataSource(config, extras);
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
  } catch (e) {
    await ds.destroy().catch(() => undefined);
    throw e;
  }
  return ds;
}
