import { MigrationInterface, QueryRunner } from 'typeorm';

export class SecretScanningAlertTotals1795740258158 implements MigrationInterface {
    name = 'SecretScanningAlertTotals1795740258158';

    public async up(queryRunner: QueryRunner): Promise<void> {
        // The table is written only by these triggers (entities/secret-scanning/secret-scanning-total.entity.ts).
        await queryRunner.query("CREATE TABLE \"secret_scanning_alert_totals\" (\"repository_id\" integer PRIMARY KEY NOT NULL, \"alerts\" integer NOT NULL DEFAULT (0))");
        await queryRunner.query("CREATE TRIGGER \"trg_ss_alert_totals_insert\" AFTER INSERT ON \"secret_scanning_alerts\" BEGIN INSERT INTO \"secret_scanning_alert_totals\" (\"repository_id\", \"alerts\") VALUES (NEW.\"repository_id\", 1) ON CONFLICT (\"repository_id\") DO UPDATE SET \"alerts\" = \"alerts\" + 1; END");
        await queryRunner.query("CREATE TRIGGER \"trg_ss_alert_totals_delete\" AFTER DELETE ON \"secret_scanning_alerts\" BEGIN UPDATE \"secret_scanning_alert_totals\" SET \"alerts\" = \"alerts\" - 1 WHERE \"repository_id\" = OLD.\"repository_id\"; END");
        await queryRunner.query("CREATE TRIGGER \"trg_ss_alert_totals_move\" AFTER UPDATE OF \"repository_id\" ON \"secret_scanning_alerts\" WHEN OLD.\"repository_id\" IS NOT NEW.\"repository_id\" BEGIN UPDATE \"secret_scanning_alert_totals\" SET \"alerts\" = \"alerts\" - 1 WHERE \"repository_id\" = OLD.\"repository_id\"; INSERT INTO \"secret_scanning_alert_totals\" (\"repository_id\", \"alerts\") VALUES (NEW.\"repository_id\", 1) ON CONFLICT (\"repository_id\") DO UPDATE SET \"alerts\" = \"alerts\" + 1; END");
        await queryRunner.query("INSERT INTO \"secret_scanning_alert_totals\" (\"repository_id\", \"alerts\") SELECT \"repository_id\", COUNT(*) FROM \"secret_scanning_alerts\" GROUP BY \"repository_id\"");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP TRIGGER \"trg_ss_alert_totals_move\"");
        await queryRunner.query("DROP TRIGGER \"trg_ss_alert_totals_delete\"");
        await queryRunner.query("DROP TRIGGER \"trg_ss_alert_totals_insert\"");
        await queryRunner.query("DROP TABLE \"secret_scanning_alert_totals\"");
    }
}
