/**
 * A throwaway database for one test file: in-memory SQLite by default, or a fresh PostgreSQL database
 * when DATABASE_URL is a postgres:// URL (dropped at the end). Migrations run exactly as in production.
 */
import type { DataSource, Logger } from 'typeorm';
import { openDatabase } from '../../ormconfig';
import type { DatabaseConfig } from '../../src/config';
import type { AnyModule } from '../../src/modules/module';
import { createTempPostgresDatabase } from '../../src/db/temp-postgres';

export interface TestDatabase {
  dataSource: DataSource;
  database: DatabaseConfig;
  /** Close and remove the database. */
  drop(): Promise<void>;
}

export function testDialect(): 'sqlite' | 'postgres' {
  return /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? 'postgres' : 'sqlite';
}

/** A database config for a throwaway database (sqlite file path or a new pg database). */
export async function createTestDatabaseConfig(): Promise<{ database: DatabaseConfig; drop(): Promise<void> }> {
  if (testDialect() === 'postgres') {
    const tmp = await createTempPostgresDatabase(process.env.DATABASE_URL!, 'gw_test');
    return { database: { type: 'postgres', url: tmp.url }, drop: () => tmp.drop() };
  }
  return { database: { type: 'sqlite', path: ':memory:' }, drop: async () => undefined };
}

export async function openTestDatabase(opts: { logger?: Logger; modules?: readonly AnyModule[] } = {}): Promise<TestDatabase> {
  const { database, drop } = await createTestDatabaseConfig();
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
