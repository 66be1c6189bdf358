import { MigrationInterface, QueryRunner } from 'typeorm';

export class RepositoryTotals1795743079654 implements MigrationInterface {
    name = 'RepositoryTotals1795743079654';

    public async up(queryRunner: QueryRunner): Promise<void> {
        // The table is written only by these triggers (entities/identity/repository-total.entity.ts).
        await queryRunner.query("CREATE TABLE \"repository_totals\" (\"owner_id\" integer NOT NULL, \"repositories\" integer NOT NULL DEFAULT '0', CONSTRAINT \"PK_5877af81c80f0634467e9cd1024\" PRIMARY KEY (\"owner_id\"))");
        await queryRunner.query("CREATE FUNCTION \"repository_totals_keep\"() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  IF TG_OP IN ('DELETE', 'UPDATE') THEN\n    UPDATE \"repository_totals\" SET \"repositories\" = \"repositories\" - 1 WHERE \"owner_id\" = OLD.\"owner_id\";\n  END IF;\n  IF TG_OP IN ('INSERT', 'UPDATE') THEN\n    INSERT INTO \"repository_totals\" (\"owner_id\", \"repositories\") VALUES (NEW.\"owner_id\", 1)\n    ON CONFLICT (\"owner_id\") DO UPDATE SET \"repositories\" = \"repository_totals\".\"repositories\" + 1;\n  END IF;\n  RETURN NULL;\nEND $$");
        await queryRunner.query("CREATE TRIGGER \"trg_repository_totals_insert_delete\" AFTER INSERT OR DELETE ON \"repositories\" FOR EACH ROW EXECUTE FUNCTION \"repository_totals_keep\"()");
        await queryRunner.query("CREATE TRIGGER \"trg_repository_totals_move\" AFTER UPDATE OF \"owner_id\" ON \"repositories\" FOR EACH ROW WHEN (OLD.\"owner_id\" IS DISTINCT FROM NEW.\"owner_id\") EXECUTE FUNCTION \"repository_totals_keep\"()");
        await queryRunner.query("INSERT INTO \"repository_totals\" (\"owner_id\", \"repositories\") SELECT \"owner_id\", COUNT(*) FROM \"repositories\" GROUP BY \"owner_id\"");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP TRIGGER \"trg_repository_totals_move\" ON \"repositories\"");
        await queryRunner.query("DROP TRIGGER \"trg_repository_totals_insert_delete\" ON \"repositories\"");
        await queryRunner.query("DROP FUNCTION \"repository_totals_keep\"()");
        await queryRunner.query("DROP TABLE \"repository_totals\"");
    }
}
