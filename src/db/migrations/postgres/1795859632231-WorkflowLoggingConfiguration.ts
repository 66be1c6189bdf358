import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowLoggingConfiguration1795859632231 implements MigrationInterface {
    name = 'WorkflowLoggingConfiguration1795859632231';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"workflow_definitions\" ADD \"logging_configuration\" text");
        await queryRunner.query("ALTER TABLE \"workflow_definition_versions\" ADD \"logging_configuration\" text");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"workflow_definition_versions\" DROP COLUMN \"logging_configuration\"");
        await queryRunner.query("ALTER TABLE \"workflow_definitions\" DROP COLUMN \"logging_configuration\"");
    }
}
