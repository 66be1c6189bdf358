/**
 * A throwaway PostgreSQL database next to a given one: created from the base URL's server,
 * dropped by `drop()`. Used by the test suite (one database per test file) and the migration generator.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface TempPostgres {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createTempPostgresDatabase(baseUrl: string, prefix = 'gw_tmp', opts: { template?: string } = {}): Promise<TempPostgres> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"${opts.template ? ` TEMPLATE "${opts.template.replace(/"/g, '""')}"` : ''}`);
  } finally {
    await admin.end();
  }
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    async drop() {
      const c = new Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
