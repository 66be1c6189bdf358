import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowMapRunRedrive1795853296278 implements MigrationInterface {
    name = 'WorkflowMapRunRedrive1795853296278';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"workflow_map_runs\" ADD \"redrive_count\" integer NOT NULL DEFAULT '0'");
        await queryRunner.query("ALTER TABLE \"workflow_map_runs\" ADD \"redrive_date\" TIMESTAMP");
        await queryRunner.query("ALTER TABLE \"workflow_map_runs\" ADD \"redrive_started\" integer NOT NULL DEFAULT '0'");
        await queryRunner.query("ALTER TABLE \"workflow_map_runs\" ADD \"pending_redrive\" integer NOT NULL DEFAULT '0'");
        await queryRunner.query("ALTER TABLE \"workflow_map_runs\" ADD \"items_pending_redrive\" integer NOT NULL DEFAULT '0'");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"workflow_map_runs\" DROP COLUMN \"items_pending_redrive\"");
        await queryRunner.query("ALTER TABLE \"workflow_map_runs\" DROP COLUMN \"pending_redrive\"");
        await queryRunner.query("ALTER TABLE \"workflow_map_runs\" DROP COLUMN \"redrive_started\"");
        await queryRunner.query("ALTER TABLE \"workflow_map_runs\" DROP COLUMN \"redrive_date\"");
        await queryRunner.query("ALTER TABLE \"workflow_map_runs\" DROP COLUMN \"redrive_count\"");
    }
}
