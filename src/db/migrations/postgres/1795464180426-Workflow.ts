import { MigrationInterface, QueryRunner } from 'typeorm';

export class Workflow1795464180426 implements MigrationInterface {
    name = 'Workflow1795464180426';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"workflow_definitions\" (\"id\" SERIAL NOT NULL, \"arn\" character varying(256) NOT NULL, \"name\" character varying(80) NOT NULL, \"definition\" text NOT NULL, \"role_arn\" character varying(256) NOT NULL, \"type\" character varying(16) NOT NULL DEFAULT 'STANDARD', \"status\" character varying(16) NOT NULL DEFAULT 'ACTIVE', \"created_by\" integer, \"created_at\" TIMESTAMP NOT NULL, \"updated_at\" TIMESTAMP NOT NULL, \"revision_id\" character varying(64) NOT NULL, CONSTRAINT \"PK_4f92fadfc5fb722f080ceaec272\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definitions_arn\" ON \"workflow_definitions\"  (\"arn\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definitions_name\" ON \"workflow_definitions\"  (\"name\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_definitions_created_by\" ON \"workflow_definitions\"  (\"created_by\") ");
        await queryRunner.query("CREATE TABLE \"workflow_jobs\" (\"id\" SERIAL NOT NULL, \"arn\" character varying(256) NOT NULL, \"definition_id\" integer NOT NULL, \"name\" character varying(80) NOT NULL, \"status\" character varying(16) NOT NULL DEFAULT 'RUNNING', \"input\" text NOT NULL, \"output\" text, \"error\" character varying(256), \"cause\" text, \"start_date\" TIMESTAMP NOT NULL, \"stop_date\" TIMESTAMP, \"started_by\" integer, \"definition_text\" text NOT NULL, \"trace_header\" character varying(256), \"current_state\" character varying(80), \"checkpoint\" text, \"version\" integer NOT NULL DEFAULT '1', \"lease_owner\" character varying(64), \"lease_until\" TIMESTAMP, \"wake_at\" TIMESTAMP, \"deadline\" TIMESTAMP, CONSTRAINT \"PK_9ec9c1efc9fa77f888ed848afe3\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_jobs_arn\" ON \"workflow_jobs\"  (\"arn\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_status_wake\" ON \"workflow_jobs\"  (\"status\", \"wake_at\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_started_by_start\" ON \"workflow_jobs\"  (\"started_by\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_status_start\" ON \"workflow_jobs\"  (\"status\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_def_start\" ON \"workflow_jobs\"  (\"definition_id\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_def_status_start\" ON \"workflow_jobs\"  (\"definition_id\", \"status\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_jobs_definition_name\" ON \"workflow_jobs\"  (\"definition_id\", \"name\") ");
        await queryRunner.query("CREATE TABLE \"workflow_job_events\" (\"job_id\" integer NOT NULL, \"event_id\" integer NOT NULL, \"previous_event_id\" integer NOT NULL DEFAULT '0', \"type\" character varying(64) NOT NULL, \"timestamp\" TIMESTAMP NOT NULL, \"details\" text NOT NULL DEFAULT '{}', CONSTRAINT \"PK_472d3614f72001f3c6d513c6021\" PRIMARY KEY (\"job_id\", \"event_id\"))");
        await queryRunner.query("ALTER TABLE \"workflow_definitions\" ADD CONSTRAINT \"FK_837d9fc6816d3663b36e6b03d7a\" FOREIGN KEY (\"created_by\") REFERENCES \"accounts\"(\"id\") ON DELETE SET NULL ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" ADD CONSTRAINT \"FK_77437b7032854e4120f33cd7424\" FOREIGN KEY (\"definition_id\") REFERENCES \"workflow_definitions\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" ADD CONSTRAINT \"FK_c98d140c52d3aa26c99b7ff710b\" FOREIGN KEY (\"started_by\") REFERENCES \"accounts\"(\"id\") ON DELETE SET NULL ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"workflow_job_events\" ADD CONSTRAINT \"FK_1d6938fb957b3728f8948bab572\" FOREIGN KEY (\"job_id\") REFERENCES \"workflow_jobs\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"workflow_job_events\" DROP CONSTRAINT \"FK_1d6938fb957b3728f8948bab572\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" DROP CONSTRAINT \"FK_c98d140c52d3aa26c99b7ff710b\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" DROP CONSTRAINT \"FK_77437b7032854e4120f33cd7424\"");
        await queryRunner.query("ALTER TABLE \"workflow_definitions\" DROP CONSTRAINT \"FK_837d9fc6816d3663b36e6b03d7a\"");
        await queryRunner.query("DROP TABLE \"workflow_job_events\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_jobs_definition_name\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_jobs_def_status_start\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_jobs_def_start\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_jobs_status_start\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_jobs_started_by_start\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_jobs_status_wake\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_jobs_arn\"");
        await queryRunner.query("DROP TABLE \"workflow_jobs\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_definitions_created_by\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_definitions_name\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_definitions_arn\"");
        await queryRunner.query("DROP TABLE \"workflow_definitions\"");
    }
}
