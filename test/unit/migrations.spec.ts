/**
 * Migrations are the only way the schema changes: after running them the entities need no further change
 * (on this run's dialect), and every migration can be reverted.
 */
import { openTestDatabase, testDialect } from '../helpers/db';

describe(`migrations (${testDialect()})`, () => {
  it('bring an empty database exactly to the entities', async () => {
    const db = await openTestDatabase({ empty: true });
    try {
      const pending = await db.dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
    } finally {
      await db.drop();
    }
  });

  it('revert cleanly, one by one, and apply again', async () => {
    const db = await openTestDatabase({ empty: true });
    try {
      const count = db.dataSource.migrations.length;
      expect(count).toBeGreaterThan(0);
      for (let i = 0; i < count; i++) await db.dataSource.undoLastMigration({ transaction: 'each' });
      const tables = await db.dataSource.createQueryRunner().getTables(['accounts', 'repositories']);
      expect(tables).toHaveLength(0);
      await db.dataSource.runMigrations({ transaction: 'each' });
      const after = await db.dataSource.driver.createSchemaBuilder().log();
      expect(after.upQueries).toHaveLength(0);
    } finally {
      await db.drop();
    }
  });
});
