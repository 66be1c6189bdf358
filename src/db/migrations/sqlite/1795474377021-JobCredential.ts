import { MigrationInterface, QueryRunner } from 'typeorm';

export class JobCredential1795474377021 implements MigrationInterface {
    name = 'JobCredential1795474377021';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"UQ_workflow_jobs_definition_name\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_def_status_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_def_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_status_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_started_by_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_status_wake\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_jobs_arn\"");
        await queryRunner.query("CREATE TABLE \"temporary_workflow_jobs\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"arn\" varchar(256) NOT NULL, \"definition_id\" integer NOT NULL, \"name\" varchar(80) NOT NULL, \"status\" varchar(16) NOT NULL DEFAULT ('RUNNING'), \"input\" text NOT NULL, \"output\" text, \"error\" varchar(256), \"cause\" text, \"start_date\" datetime NOT NULL, \"stop_date\" datetime, \"started_by\" integer, \"definition_text\" text NOT NULL, \"trace_header\" varchar(256), \"current_state\" varchar(80), \"checkpoint\" text, \"version\" integer NOT NULL DEFAULT (1), \"lease_owner\" varchar(64), \"lease_until\" datetime, \"wake_at\" datetime, \"deadline\" datetime, \"started_credential\" varchar(200), \"role_arn\" varchar(256), CONSTRAINT \"FK_c98d140c52d3aa26c99b7ff710b\" FOREIGN KEY (\"started_by\") REFERENCES \"accounts\" (\"id\") ON DELETE SET NULL ON UPDATE NO ACTION, CONSTRAINT \"FK_77437b7032854e4120f33cd7424\" FOREIGN KEY (\"definition_id\") REFERENCES \"workflow_definitions\" (\"id\") ON DELETE CASCADE ON UPDATE NO ACTION)");
        await queryRunner.query("INSERT INTO \"temporary_workflow_jobs\"(\"id\", \"arn\", \"definition_id\", \"name\", \"status\", \"input\", \"output\", \"error\", \"cause\", \"start_date\", \"stop_date\", \"started_by\", \"definition_text\", \"trace_header\", \"current_state\", \"checkpoint\", \"version\", \"lease_owner\", \"lease_until\", \"wake_at\", \"deadline\") SELECT \"id\", \"arn\", \"definition_id\", \"name\", \"status\", \"input\", \"output\", \"error\", \"cause\", \"start_date\", \"stop_date\", \"started_by\", \"definition_text\", \"trace_header\", \"current_state\", \"checkpoint\", \"version\", \"lease_owner\", \"lease_until\", \"wake_at\", \"deadline\" FROM \"workflow_jobs\"");
        await queryRunner.query("DROP TABLE \"workflow_jobs\"");
        await queryRunner.query("ALTER TABLE \"temporary_workflow_jobs\" RENAME TO \"workflow_jobs\"");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_jobs_definition_name\" ON \"workflow_jobs\" (\"definition_id\", \"name\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_def_status_start\" ON \"workflow_jobs\" (\"definition_id\", \"status\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_def_start\" ON \"workflow_jobs\" (\"definition_id\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_status_start\" ON \"workflow_jobs\" (\"status\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_started_by_start\" ON \"workflow_jobs\" (\"started_by\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_status_wake\" ON \"workflow_jobs\" (\"status\", \"wake_at\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_jobs_arn\" ON \"workflow_jobs\" (\"arn\") ");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"UQ_workflow_jobs_arn\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_status_wake\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_started_by_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_status_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_def_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_def_status_start\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_jobs_definition_name\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" RENAME TO \"temporary_workflow_jobs\"");
        await queryRunner.query("CREATE TABLE \"workflow_jobs\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"arn\" varchar(256) NOT NULL, \"definition_id\" integer NOT NULL, \"name\" varchar(80) NOT NULL, \"status\" varchar(16) NOT NULL DEFAULT ('RUNNING'), \"input\" text NOT NULL, \"output\" text, \"error\" varchar(256), \"cause\" text, \"start_date\" datetime NOT NULL, \"stop_date\" datetime, \"started_by\" integer, \"definition_text\" text NOT NULL, \"trace_header\" varchar(256), \"current_state\" varchar(80), \"checkpoint\" text, \"version\" integer NOT NULL DEFAULT (1), \"lease_owner\" varchar(64), \"lease_until\" datetime, \"wake_at\" datetime, \"deadline\" datetime, CONSTRAINT \"FK_c98d140c52d3aa26c99b7ff710b\" FOREIGN KEY (\"started_by\") REFERENCES \"accounts\" (\"id\") ON DELETE SET NULL ON UPDATE NO ACTION, CONSTRAINT \"FK_77437b7032854e4120f33cd7424\" FOREIGN KEY (\"definition_id\") REFERENCES \"workflow_definitions\" (\"id\") ON DELETE CASCADE ON UPDATE NO ACTION)");
        await queryRunner.query("INSERT INTO \"workflow_jobs\"(\"id\", \"arn\", \"definition_id\", \"name\", \"status\", \"input\", \"output\", \"error\", \"cause\", \"start_date\", \"stop_date\", \"started_by\", \"definition_text\", \"trace_header\", \"current_state\", \"checkpoint\", \"version\", \"lease_owner\", \"lease_until\", \"wake_at\", \"deadline\") SELECT \"id\", \"arn\", \"definition_id\", \"name\", \"status\", \"input\", \"output\", \"error\", \"cause\", \"start_date\", \"stop_date\", \"started_by\", \"definition_text\", \"trace_header\", \"current_state\", \"checkpoint\", \"version\", \"lease_owner\", \"lease_until\", \"wake_at\", \"deadline\" FROM \"temporary_workflow_jobs\"");
        await queryRunner.query("DROP TABLE \"temporary_workflow_jobs\"");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_jobs_arn\" ON \"workflow_jobs\" (\"arn\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_status_wake\" ON \"workflow_jobs\" (\"status\", \"wake_at\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_started_by_start\" ON \"workflow_jobs\" (\"started_by\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_status_start\" ON \"workflow_jobs\" (\"status\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_def_start\" ON \"workflow_jobs\" (\"definition_id\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_def_status_start\" ON \"workflow_jobs\" (\"definition_id\", \"status\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_jobs_definition_name\" ON \"workflow_jobs\" (\"definition_id\", \"name\") ");
    }
}
