import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowExpressRuns1795861978006 implements MigrationInterface {
    name = 'WorkflowExpressRuns1795861978006';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"workflow_express_runs\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"arn\" varchar(512) NOT NULL, \"name\" varchar(80) NOT NULL, \"definition_name\" varchar(80) NOT NULL, \"definition_text\" text NOT NULL, \"role_arn\" varchar(256) NOT NULL, \"input\" text NOT NULL, \"trace_header\" varchar(256), \"started_by\" integer, \"started_credential\" varchar(200), \"start_date\" datetime NOT NULL, \"lease_owner\" varchar(64), \"lease_until\" datetime, \"attempts\" integer NOT NULL DEFAULT (1))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_express_runs_arn\" ON \"workflow_express_runs\" (\"arn\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_express_runs_lease\" ON \"workflow_express_runs\" (\"lease_until\") ");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"IDX_workflow_express_runs_lease\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_express_runs_arn\"");
        await queryRunner.query("DROP TABLE \"workflow_express_runs\"");
    }
}
