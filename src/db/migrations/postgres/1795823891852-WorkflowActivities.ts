import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowActivities1795823891852 implements MigrationInterface {
    name = 'WorkflowActivities1795823891852';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"workflow_activities\" (\"id\" SERIAL NOT NULL, \"arn\" character varying(256) NOT NULL, \"name\" character varying(80) NOT NULL, \"created_by\" integer, \"created_at\" TIMESTAMP NOT NULL, CONSTRAINT \"PK_fcaa7bbcdfa3b3de12c66c95b5b\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_activities_arn\" ON \"workflow_activities\"  (\"arn\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_activities_name\" ON \"workflow_activities\"  (\"name\") ");
        await queryRunner.query("CREATE TABLE \"workflow_tasks\" (\"id\" SERIAL NOT NULL, \"job_id\" integer NOT NULL, \"task_key\" character varying(64) NOT NULL, \"kind\" character varying(16) NOT NULL, \"activity_id\" integer, \"resource\" character varying(256) NOT NULL, \"state_name\" character varying(80) NOT NULL, \"status\" character varying(16) NOT NULL, \"token_hash\" character varying(64), \"input\" text NOT NULL, \"output\" text, \"error\" character varying(256), \"cause\" text, \"worker_name\" character varying(80), \"scheduled_at\" TIMESTAMP NOT NULL, \"started_at\" TIMESTAMP, \"heartbeat_seconds\" integer, \"heartbeat_until\" TIMESTAMP, \"timeout_at\" TIMESTAMP, \"closed_at\" TIMESTAMP, CONSTRAINT \"PK_702a80959e8b659ab50fb64938a\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_tasks_token_hash\" ON \"workflow_tasks\"  (\"token_hash\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_tasks_job_status\" ON \"workflow_tasks\"  (\"job_id\", \"status\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_tasks_activity_status\" ON \"workflow_tasks\"  (\"activity_id\", \"status\", \"id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_tasks_key\" ON \"workflow_tasks\"  (\"job_id\", \"task_key\") ");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" ADD \"redrive_count\" integer NOT NULL DEFAULT '0'");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" ADD \"redrive_date\" TIMESTAMP");
        await queryRunner.query("ALTER TABLE \"workflow_tasks\" ADD CONSTRAINT \"FK_f49372f95e3cf2cdefaae8f0beb\" FOREIGN KEY (\"job_id\") REFERENCES \"workflow_jobs\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"workflow_tasks\" DROP CONSTRAINT \"FK_f49372f95e3cf2cdefaae8f0beb\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" DROP COLUMN \"redrive_date\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" DROP COLUMN \"redrive_count\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_tasks_key\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_tasks_activity_status\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_tasks_job_status\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_tasks_token_hash\"");
        await queryRunner.query("DROP TABLE \"workflow_tasks\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_activities_name\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_activities_arn\"");
        await queryRunner.query("DROP TABLE \"workflow_activities\"");
    }
}
