import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowExpressRuns1795861978006 implements MigrationInterface {
    name = 'WorkflowExpressRuns1795861978006';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"workflow_express_runs\" (\"id\" SERIAL NOT NULL, \"arn\" character varying(512) NOT NULL, \"name\" character varying(80) NOT NULL, \"definition_name\" character varying(80) NOT NULL, \"definition_text\" text NOT NULL, \"role_arn\" character varying(256) NOT NULL, \"input\" text NOT NULL, \"trace_header\" character varying(256), \"started_by\" integer, \"started_credential\" character varying(200), \"start_date\" TIMESTAMP NOT NULL, \"lease_owner\" character varying(64), \"lease_until\" TIMESTAMP, \"attempts\" integer NOT NULL DEFAULT '1', CONSTRAINT \"PK_5f5a9b0278fab246c982432f33b\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_express_runs_arn\" ON \"workflow_express_runs\"  (\"arn\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_express_runs_lease\" ON \"workflow_express_runs\"  (\"lease_until\") ");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_express_runs_lease\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_express_runs_arn\"");
        await queryRunner.query("DROP TABLE \"workflow_express_runs\"");
    }
}
