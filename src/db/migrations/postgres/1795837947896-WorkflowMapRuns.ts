import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowMapRuns1795837947896 implements MigrationInterface {
    name = 'WorkflowMapRuns1795837947896';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"workflow_map_runs\" (\"id\" SERIAL NOT NULL, \"arn\" character varying(512) NOT NULL, \"job_id\" integer NOT NULL, \"key\" character varying(512) NOT NULL, \"status\" character varying(16) NOT NULL DEFAULT 'RUNNING', \"execution_type\" character varying(16) NOT NULL, \"definition_text\" text NOT NULL, \"start_date\" TIMESTAMP NOT NULL, \"stop_date\" TIMESTAMP, \"max_concurrency\" integer NOT NULL, \"tolerated_failure_percentage\" real, \"tolerated_failure_count\" integer, \"item_total\" integer NOT NULL, \"child_total\" integer NOT NULL, \"started\" integer NOT NULL DEFAULT '0', \"running\" integer NOT NULL DEFAULT '0', \"succeeded\" integer NOT NULL DEFAULT '0', \"failed\" integer NOT NULL DEFAULT '0', \"timed_out\" integer NOT NULL DEFAULT '0', \"aborted\" integer NOT NULL DEFAULT '0', \"items_started\" integer NOT NULL DEFAULT '0', \"items_running\" integer NOT NULL DEFAULT '0', \"items_succeeded\" integer NOT NULL DEFAULT '0', \"items_failed\" integer NOT NULL DEFAULT '0', \"items_timed_out\" integer NOT NULL DEFAULT '0', \"items_aborted\" integer NOT NULL DEFAULT '0', \"error\" character varying(256), \"cause\" text, \"version\" integer NOT NULL DEFAULT '1', CONSTRAINT \"PK_bd22f34dedc84ae089636408c38\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_map_runs_arn\" ON \"workflow_map_runs\"  (\"arn\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_map_runs_job_start\" ON \"workflow_map_runs\"  (\"job_id\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_map_runs_job_key\" ON \"workflow_map_runs\"  (\"job_id\", \"key\") ");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" ADD \"map_run_id\" integer");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" ADD \"item_index\" integer");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" ADD \"item_count\" integer");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_map_run_item\" ON \"workflow_jobs\"  (\"map_run_id\", \"item_index\") ");
        await queryRunner.query("ALTER TABLE \"workflow_map_runs\" ADD CONSTRAINT \"FK_61334c1549c7423201607f6569c\" FOREIGN KEY (\"job_id\") REFERENCES \"workflow_jobs\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"workflow_map_runs\" DROP CONSTRAINT \"FK_61334c1549c7423201607f6569c\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_jobs_map_run_item\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" DROP COLUMN \"item_count\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" DROP COLUMN \"item_index\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" DROP COLUMN \"map_run_id\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_map_runs_job_key\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_map_runs_job_start\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_map_runs_arn\"");
        await queryRunner.query("DROP TABLE \"workflow_map_runs\"");
    }
}
