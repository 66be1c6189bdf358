import { MigrationInterface, QueryRunner } from 'typeorm';

export class SecretScanningAlertTotals1795740258158 implements MigrationInterface {
    name = 'SecretScanningAlertTotals1795740258158';

    public async up(queryRunner: QueryRunner): Promise<void> {
        // The table is written only by these triggers (entities/secret-scanning/secret-scanning-total.entity.ts).
        await queryRunner.query("CREATE TABLE \"secret_scanning_alert_totals\" (\"repository_id\" integer NOT NULL, \"alerts\" integer NOT NULL DEFAULT '0', CONSTRAINT \"PK_3a92296453d466baa95d5f3ebdf\" PRIMARY KEY (\"repository_id\"))");
        await queryRunner.query("CREATE FUNCTION \"ss_alert_totals_keep\"() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  IF TG_OP IN ('DELETE', 'UPDATE') THEN\n    UPDATE \"secret_scanning_alert_totals\" SET \"alerts\" = \"alerts\" - 1 WHERE \"repository_id\" = OLD.\"repository_id\";\n  END IF;\n  IF TG_OP IN ('INSERT', 'UPDATE') THEN\n    INSERT INTO \"secret_scanning_alert_totals\" (\"repository_id\", \"alerts\") VALUES (NEW.\"repository_id\", 1)\n    ON CONFLICT (\"repository_id\") DO UPDATE SET \"alerts\" = \"secret_scanning_alert_totals\".\"alerts\" + 1;\n  END IF;\n  RETURN NULL;\nEND $$");
        await queryRunner.query("CREATE TRIGGER \"trg_ss_alert_totals_insert_delete\" AFTER INSERT OR DELETE ON \"secret_scanning_alerts\" FOR EACH ROW EXECUTE FUNCTION \"ss_alert_totals_keep\"()");
        await queryRunner.query("CREATE TRIGGER \"trg_ss_alert_totals_move\" AFTER UPDATE OF \"repository_id\" ON \"secret_scanning_alerts\" FOR EACH ROW WHEN (OLD.\"repository_id\" IS DISTINCT FROM NEW.\"repository_id\") EXECUTE FUNCTION \"ss_alert_totals_keep\"()");
        await queryRunner.query("INSERT INTO \"secret_scanning_alert_totals\" (\"repository_id\", \"alerts\") SELECT \"repository_id\", COUNT(*) FROM \"secret_scanning_alerts\" GROUP BY \"repository_id\"");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP TRIGGER \"trg_ss_alert_totals_move\" ON \"secret_scanning_alerts\"");
        await queryRunner.query("DROP TRIGGER \"trg_ss_alert_totals_insert_delete\" ON \"secret_scanning_alerts\"");
        await queryRunner.query("DROP FUNCTION \"ss_alert_totals_keep\"()");
        await queryRunner.query("DROP TABLE \"secret_scanning_alert_totals\"");
    }
}
