import { MigrationInterface, QueryRunner } from 'typeorm';

export class RepositoryTotals1795743079654 implements MigrationInterface {
    name = 'RepositoryTotals1795743079654';

    public async up(queryRunner: QueryRunner): Promise<void> {
        // The table is written only by these triggers (entities/identity/repository-total.entity.ts).
        await queryRunner.query("CREATE TABLE \"repository_totals\" (\"owner_id\" integer PRIMARY KEY NOT NULL, \"repositories\" integer NOT NULL DEFAULT (0))");
        await queryRunner.query("CREATE TRIGGER \"trg_repository_totals_insert\" AFTER INSERT ON \"repositories\" BEGIN INSERT INTO \"repository_totals\" (\"owner_id\", \"repositories\") VALUES (NEW.\"owner_id\", 1) ON CONFLICT (\"owner_id\") DO UPDATE SET \"repositories\" = \"repositories\" + 1; END");
        await queryRunner.query("CREATE TRIGGER \"trg_repository_totals_delete\" AFTER DELETE ON \"repositories\" BEGIN UPDATE \"repository_totals\" SET \"repositories\" = \"repositories\" - 1 WHERE \"owner_id\" = OLD.\"owner_id\"; END");
        await queryRunner.query("CREATE TRIGGER \"trg_repository_totals_move\" AFTER UPDATE OF \"owner_id\" ON \"repositories\" WHEN OLD.\"owner_id\" IS NOT NEW.\"owner_id\" BEGIN UPDATE \"repository_totals\" SET \"repositories\" = \"repositories\" - 1 WHERE \"owner_id\" = OLD.\"owner_id\"; INSERT INTO \"repository_totals\" (\"owner_id\", \"repositories\") VALUES (NEW.\"owner_id\", 1) ON CONFLICT (\"owner_id\") DO UPDATE SET \"repositories\" = \"repositories\" + 1; END");
        await queryRunner.query("INSERT INTO \"repository_totals\" (\"owner_id\", \"repositories\") SELECT \"owner_id\", COUNT(*) FROM \"repositories\" GROUP BY \"owner_id\"");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP TRIGGER \"trg_repository_totals_move\"");
        await queryRunner.query("DROP TRIGGER \"trg_repository_totals_delete\"");
        await queryRunner.query("DROP TRIGGER \"trg_repository_totals_insert\"");
        await queryRunner.query("DROP TABLE \"repository_totals\"");
    }
}
