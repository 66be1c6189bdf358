/**
 * A throwaway database for one test file: in-memory SQLite by default, or a fresh PostgreSQL database
 * when DATABASE_URL is a postgres:// URL (dropped at the end). Migrations run exactly as in production.
 */
import type { DataSource, Logger } from 'typeorm';
import { openDatabase } from '../../ormconfig';
import type { DatabaseConfig } from '../../src/config';
import type { AnyModule } from '../../src/modules/module';
import { createTempPostgresDatabase, type TempPostgres } from '../../src/db/temp-postgres';
import { migratedTemplate } from './pg-template';

export interface TestDatabase {
  dataSource: DataSource;
  database: DatabaseConfig;
  /** Close and remove the database. */
  drop(): Promise<void>;
}

export function testDialect(): 'sqlite' | 'postgres' {
  return /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? 'postgres' : 'sqlite';
}

/**
 * A database config for a throwaway database (sqlite file path or a new pg database). On PostgreSQL it is a copy of
 * the migrated template (test/helpers/pg-template.ts) unless `empty` asks for a database nobody has migrated.
 */
export async function createTestDatabaseConfig(opts: { empty?: boolean } = {}): Promise<{ database: DatabaseConfig; drop(): Promise<void> }> {
  if (testDialect() === 'postgres') {
    const base = process.env.DATABASE_URL!;
    let tmp: TempPostgres;
    if (opts.empty) tmp = await createTempPostgresDatabase(base, 'gw_test');
    else {
      try {
        tmp = await createTempPostgresDatabase(base, 'gw_test', { template: await migratedTemplate(base) });
      } catch (e) {
        // Gone meanwhile (another checkout's suite replaced it): make it again, once.
        if (!/does not exist/.test((e as Error).message)) throw e;
        tmp = await createTempPostgresDatabase(base, 'gw_test', { template: await migratedTemplate(base, { again: true }) });
      }
    }
    return { database: { type: 'postgres', url: tmp.url }, drop: () => tmp.drop() };
  }
  return { database: { type: 'sqlite', path: ':memory:' }, drop: async () => undefined };
}

export async function openTestDatabase(opts: { logger?: Logger; modules?: readonly AnyModule[]; empty?: boolean } = {}): Promise<TestDatabase> {
  const { database, drop } = await createTestDatabaseConfig({ empty: opts.empty });
  const dataSource = await openDatabase({ database }, { logger: opts.logger, modules: opts.modules });
  return {
    dataSource,
    database,
    async drop() {
      if (dataSource.isInitialized) await dataSource.destroy();
      await drop();
    },
  };
}
