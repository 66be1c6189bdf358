import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowActivities1795823891852 implements MigrationInterface {
    name = 'WorkflowActivities1795823891852';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"workflow_activities\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"arn\" varchar(256) NOT NULL, \"name\" varchar(80) NOT NULL, \"created_by\" integer, \"created_at\" datetime NOT NULL)");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_activities_arn\" ON \"workflow_activities\" (\"arn\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_activities_name\" ON \"workflow_activities\" (\"name\") ");
        await queryRunner.query("CREATE TABLE \"workflow_tasks\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"job_id\" integer NOT NULL, \"task_key\" varchar(64) NOT NULL, \"kind\" varchar(16) NOT NULL, \"activity_id\" integer, \"resource\" varchar(256) NOT NULL, \"state_name\" varchar(80) NOT NULL, \"status\" varchar(16) NOT NULL, \"token_hash\" varchar(64), \"input\" text NOT NULL, \"output\" text, \"error\" varchar(256), \"cause\" text, \"worker_name\" varchar(80), \"scheduled_at\" datetime NOT NULL, \"started_at\" datetime, \"heartbeat_seconds\" integer, \"heartbeat_until\" datetime, \"timeout_at\" datetime, \"closed_at\" datetime)");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_tasks_token_hash\" ON \"workflow_tasks\" (\"token_hash\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_tasks_job_status\" ON \"workflow_tasks\" (\"job_id\", \"status\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_tasks_activity_status\" ON \"workflow_tasks\" (\"activity_id\", \"status\", \"id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_tasks_key\" ON \"workflow_tasks\" (\"job_id\", \"task_key\") ");
        await queryRunner.query("DROP INDEX \"UQ_workflow_jobs_arn\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_status_wake\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_started_by_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_status_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_def_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_def_status_start\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_jobs_definition_name\"");
        await queryRunner.query("CREATE TABLE \"temporary_workflow_jobs\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"arn\" varchar(256) NOT NULL, \"definition_id\" integer NOT NULL, \"name\" varchar(80) NOT NULL, \"status\" varchar(16) NOT NULL DEFAULT ('RUNNING'), \"input\" text NOT NULL, \"output\" text, \"error\" varchar(256), \"cause\" text, \"start_date\" datetime NOT NULL, \"stop_date\" datetime, \"started_by\" integer, \"definition_text\" text NOT NULL, \"trace_header\" varchar(256), \"current_state\" varchar(80), \"checkpoint\" text, \"version\" integer NOT NULL DEFAULT (1), \"lease_owner\" varchar(64), \"lease_until\" datetime, \"wake_at\" datetime, \"deadline\" datetime, \"started_credential\" varchar(200), \"role_arn\" varchar(256), \"redrive_count\" integer NOT NULL DEFAULT (0), \"redrive_date\" datetime, CONSTRAINT \"FK_77437b7032854e4120f33cd7424\" FOREIGN KEY (\"definition_id\") REFERENCES \"workflow_definitions\" (\"id\") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT \"FK_c98d140c52d3aa26c99b7ff710b\" FOREIGN KEY (\"started_by\") REFERENCES \"accounts\" (\"id\") ON DELETE SET NULL ON UPDATE NO ACTION)");
        await queryRunner.query("INSERT INTO \"temporary_workflow_jobs\"(\"id\", \"arn\", \"definition_id\", \"name\", \"status\", \"input\", \"output\", \"error\", \"cause\", \"start_date\", \"stop_date\", \"started_by\", \"definition_text\", \"trace_header\", \"current_state\", \"checkpoint\", \"version\", \"lease_owner\", \"lease_until\", \"wake_at\", \"deadline\", \"started_credential\", \"role_arn\") SELECT \"id\", \"arn\", \"definition_id\", \"name\", \"status\", \"input\", \"output\", \"error\", \"cause\", \"start_date\", \"stop_date\", \"started_by\", \"definition_text\", \"trace_header\", \"current_state\", \"checkpoint\", \"version\", \"lease_owner\", \"lease_until\", \"wake_at\", \"deadline\", \"started_credential\", \"role_arn\" FROM \"workflow_jobs\"");
        await queryRunner.query("DROP TABLE \"workflow_jobs\"");
        await queryRunner.query("ALTER TABLE \"temporary_workflow_jobs\" RENAME TO \"workflow_jobs\"");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_jobs_arn\" ON \"workflow_jobs\" (\"arn\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_status_wake\" ON \"workflow_jobs\" (\"status\", \"wake_at\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_started_by_start\" ON \"workflow_jobs\" (\"started_by\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_status_start\" ON \"workflow_jobs\" (\"status\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_def_start\" ON \"workflow_jobs\" (\"definition_id\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_def_status_start\" ON \"workflow_jobs\" (\"definition_id\", \"status\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_jobs_definition_name\" ON \"workflow_jobs\" (\"definition_id\", \"name\") ");
        await queryRunner.query("DROP INDEX \"UQ_workflow_tasks_token_hash\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_tasks_job_status\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_tasks_activity_status\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_tasks_key\"");
        await queryRunner.query("CREATE TABLE \"temporary_workflow_tasks\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"job_id\" integer NOT NULL, \"task_key\" varchar(64) NOT NULL, \"kind\" varchar(16) NOT NULL, \"activity_id\" integer, \"resource\" varchar(256) NOT NULL, \"state_name\" varchar(80) NOT NULL, \"status\" varchar(16) NOT NULL, \"token_hash\" varchar(64), \"input\" text NOT NULL, \"output\" text, \"error\" varchar(256), \"cause\" text, \"worker_name\" varchar(80), \"scheduled_at\" datetime NOT NULL, \"started_at\" datetime, \"heartbeat_seconds\" integer, \"heartbeat_until\" datetime, \"timeout_at\" datetime, \"closed_at\" datetime, CONSTRAINT \"FK_f49372f95e3cf2cdefaae8f0beb\" FOREIGN KEY (\"job_id\") REFERENCES \"workflow_jobs\" (\"id\") ON DELETE CASCADE ON UPDATE NO ACTION)");
        await queryRunner.query("INSERT INTO \"temporary_workflow_tasks\"(\"id\", \"job_id\", \"task_key\", \"kind\", \"activity_id\", \"resource\", \"state_name\", \"status\", \"token_hash\", \"input\", \"output\", \"error\", \"cause\", \"worker_name\", \"scheduled_at\", \"started_at\", \"heartbeat_seconds\", \"heartbeat_until\", \"timeout_at\", \"closed_at\") SELECT \"id\", \"job_id\", \"task_key\", \"kind\", \"activity_id\", \"resource\", \"state_name\", \"status\", \"token_hash\", \"input\", \"output\", \"error\", \"cause\", \"worker_name\", \"scheduled_at\", \"started_at\", \"heartbeat_seconds\", \"heartbeat_until\", \"timeout_at\", \"closed_at\" FROM \"workflow_tasks\"");
        await queryRunner.query("DROP TABLE \"workflow_tasks\"");
        await queryRunner.query("ALTER TABLE \"temporary_workflow_tasks\" RENAME TO \"workflow_tasks\"");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_tasks_token_hash\" ON \"workflow_tasks\" (\"token_hash\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_tasks_job_status\" ON \"workflow_tasks\" (\"job_id\", \"status\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_tasks_activity_status\" ON \"workflow_tasks\" (\"activity_id\", \"status\", \"id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_tasks_key\" ON \"workflow_tasks\" (\"job_id\", \"task_key\") ");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"UQ_workflow_tasks_key\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_tasks_activity_status\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_tasks_job_status\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_tasks_token_hash\"");
        await queryRunner.query("ALTER TABLE \"workflow_tasks\" RENAME TO \"temporary_workflow_tasks\"");
        await queryRunner.query("CREATE TABLE \"workflow_tasks\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"job_id\" integer NOT NULL, \"task_key\" varchar(64) NOT NULL, \"kind\" varchar(16) NOT NULL, \"activity_id\" integer, \"resource\" varchar(256) NOT NULL, \"state_name\" varchar(80) NOT NULL, \"status\" varchar(16) NOT NULL, \"token_hash\" varchar(64), \"input\" text NOT NULL, \"output\" text, \"error\" varchar(256), \"cause\" text, \"worker_name\" varchar(80), \"scheduled_at\" datetime NOT NULL, \"started_at\" datetime, \"heartbeat_seconds\" integer, \"heartbeat_until\" datetime, \"timeout_at\" datetime, \"closed_at\" datetime)");
        await queryRunner.query("INSERT INTO \"workflow_tasks\"(\"id\", \"job_id\", \"task_key\", \"kind\", \"activity_id\", \"resource\", \"state_name\", \"status\", \"token_hash\", \"input\", \"output\", \"error\", \"cause\", \"worker_name\", \"scheduled_at\", \"started_at\", \"heartbeat_seconds\", \"heartbeat_until\", \"timeout_at\", \"closed_at\") SELECT \"id\", \"job_id\", \"task_key\", \"kind\", \"activity_id\", \"resource\", \"state_name\", \"status\", \"token_hash\", \"input\", \"output\", \"error\", \"cause\", \"worker_name\", \"scheduled_at\", \"started_at\", \"heartbeat_seconds\", \"heartbeat_until\", \"timeout_at\", \"closed_at\" FROM \"temporary_workflow_tasks\"");
        await queryRunner.query("DROP TABLE \"temporary_workflow_tasks\"");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_tasks_key\" ON \"workflow_tasks\" (\"job_id\", \"task_key\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_tasks_activity_status\" ON \"workflow_tasks\" (\"activity_id\", \"status\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_tasks_job_status\" ON \"workflow_tasks\" (\"job_id\", \"status\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_tasks_token_hash\" ON \"workflow_tasks\" (\"token_hash\") ");
        await queryRunner.query("DROP INDEX \"UQ_workflow_jobs_definition_name\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_def_status_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_def_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_status_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_started_by_start\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_jobs_status_wake\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_jobs_arn\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" RENAME TO \"temporary_workflow_jobs\"");
        await queryRunner.query("CREATE TABLE \"workflow_jobs\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"arn\" varchar(256) NOT NULL, \"definition_id\" integer NOT NULL, \"name\" varchar(80) NOT NULL, \"status\" varchar(16) NOT NULL DEFAULT ('RUNNING'), \"input\" text NOT NULL, \"output\" text, \"error\" varchar(256), \"cause\" text, \"start_date\" datetime NOT NULL, \"stop_date\" datetime, \"started_by\" integer, \"definition_text\" text NOT NULL, \"trace_header\" varchar(256), \"current_state\" varchar(80), \"checkpoint\" text, \"version\" integer NOT NULL DEFAULT (1), \"lease_owner\" varchar(64), \"lease_until\" datetime, \"wake_at\" datetime, \"deadline\" datetime, \"started_credential\" varchar(200), \"role_arn\" varchar(256), CONSTRAINT \"FK_77437b7032854e4120f33cd7424\" FOREIGN KEY (\"definition_id\") REFERENCES \"workflow_definitions\" (\"id\") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT \"FK_c98d140c52d3aa26c99b7ff710b\" FOREIGN KEY (\"started_by\") REFERENCES \"accounts\" (\"id\") ON DELETE SET NULL ON UPDATE NO ACTION)");
        await queryRunner.query("INSERT INTO \"workflow_jobs\"(\"id\", \"arn\", \"definition_id\", \"name\", \"status\", \"input\", \"output\", \"error\", \"cause\", \"start_date\", \"stop_date\", \"started_by\", \"definition_text\", \"trace_header\", \"current_state\", \"checkpoint\", \"version\", \"lease_owner\", \"lease_until\", \"wake_at\", \"deadline\", \"started_credential\", \"role_arn\") SELECT \"id\", \"arn\", \"definition_id\", \"name\", \"status\", \"input\", \"output\", \"error\", \"cause\", \"start_date\", \"stop_date\", \"started_by\", \"definition_text\", \"trace_header\", \"current_state\", \"checkpoint\", \"version\", \"lease_owner\", \"lease_until\", \"wake_at\", \"deadline\", \"started_credential\", \"role_arn\" FROM \"temporary_workflow_jobs\"");
        await queryRunner.query("DROP TABLE \"temporary_workflow_jobs\"");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_jobs_definition_name\" ON \"workflow_jobs\" (\"definition_id\", \"name\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_def_status_start\" ON \"workflow_jobs\" (\"definition_id\", \"status\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_def_start\" ON \"workflow_jobs\" (\"definition_id\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_status_start\" ON \"workflow_jobs\" (\"status\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_started_by_start\" ON \"workflow_jobs\" (\"started_by\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_status_wake\" ON \"workflow_jobs\" (\"status\", \"wake_at\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_jobs_arn\" ON \"workflow_jobs\" (\"arn\") ");
        await queryRunner.query("DROP INDEX \"UQ_workflow_tasks_key\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_tasks_activity_status\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_tasks_job_status\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_tasks_token_hash\"");
        await queryRunner.query("DROP TABLE \"workflow_tasks\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_activities_name\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_activities_arn\"");
        await queryRunner.query("DROP TABLE \"workflow_activities\"");
    }
}
