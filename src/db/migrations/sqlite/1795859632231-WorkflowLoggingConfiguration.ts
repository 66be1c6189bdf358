import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowLoggingConfiguration1795859632231 implements MigrationInterface {
    name = 'WorkflowLoggingConfiguration1795859632231';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"UQ_workflow_definitions_arn\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_definitions_name\"");
        await queryRunner.query("DROP INDEX \"IDX_workflow_definitions_created_by\"");
        await queryRunner.query("CREATE TABLE \"temporary_workflow_definitions\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"arn\" varchar(256) NOT NULL, \"name\" varchar(80) NOT NULL, \"definition\" text NOT NULL, \"role_arn\" varchar(256) NOT NULL, \"type\" varchar(16) NOT NULL DEFAULT ('STANDARD'), \"status\" varchar(16) NOT NULL DEFAULT ('ACTIVE'), \"created_by\" integer, \"created_at\" datetime NOT NULL, \"updated_at\" datetime NOT NULL, \"revision_id\" varchar(64) NOT NULL, \"last_version\" integer NOT NULL DEFAULT (0), \"logging_configuration\" text, CONSTRAINT \"FK_837d9fc6816d3663b36e6b03d7a\" FOREIGN KEY (\"created_by\") REFERENCES \"accounts\" (\"id\") ON DELETE SET NULL ON UPDATE NO ACTION)");
        await queryRunner.query("INSERT INTO \"temporary_workflow_definitions\"(\"id\", \"arn\", \"name\", \"definition\", \"role_arn\", \"type\", \"status\", \"created_by\", \"created_at\", \"updated_at\", \"revision_id\", \"last_version\") SELECT \"id\", \"arn\", \"name\", \"definition\", \"role_arn\", \"type\", \"status\", \"created_by\", \"created_at\", \"updated_at\", \"revision_id\", \"last_version\" FROM \"workflow_definitions\"");
        await queryRunner.query("DROP TABLE \"workflow_definitions\"");
        await queryRunner.query("ALTER TABLE \"temporary_workflow_definitions\" RENAME TO \"workflow_definitions\"");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definitions_arn\" ON \"workflow_definitions\" (\"arn\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definitions_name\" ON \"workflow_definitions\" (\"name\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_definitions_created_by\" ON \"workflow_definitions\" (\"created_by\") ");
        await queryRunner.query("DROP INDEX \"UQ_workflow_definition_versions_number\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_definition_versions_arn\"");
        await queryRunner.query("CREATE TABLE \"temporary_workflow_definition_versions\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"definition_id\" integer NOT NULL, \"number\" integer NOT NULL, \"arn\" varchar(256) NOT NULL, \"definition\" text NOT NULL, \"role_arn\" varchar(256) NOT NULL, \"revision_id\" varchar(64) NOT NULL, \"description\" varchar(256), \"created_at\" datetime NOT NULL, \"logging_configuration\" text, CONSTRAINT \"FK_1b101ed70113ae7fa2da7c9d028\" FOREIGN KEY (\"definition_id\") REFERENCES \"workflow_definitions\" (\"id\") ON DELETE CASCADE ON UPDATE NO ACTION)");
        await queryRunner.query("INSERT INTO \"temporary_workflow_definition_versions\"(\"id\", \"definition_id\", \"number\", \"arn\", \"definition\", \"role_arn\", \"revision_id\", \"description\", \"created_at\") SELECT \"id\", \"definition_id\", \"number\", \"arn\", \"definition\", \"role_arn\", \"revision_id\", \"description\", \"created_at\" FROM \"workflow_definition_versions\"");
        await queryRunner.query("DROP TABLE \"workflow_definition_versions\"");
        await queryRunner.query("ALTER TABLE \"temporary_workflow_definition_versions\" RENAME TO \"workflow_definition_versions\"");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definition_versions_number\" ON \"workflow_definition_versions\" (\"definition_id\", \"number\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definition_versions_arn\" ON \"workflow_definition_versions\" (\"arn\") ");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"UQ_workflow_definition_versions_arn\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_definition_versions_number\"");
        await queryRunner.query("ALTER TABLE \"workflow_definition_versions\" RENAME TO \"temporary_workflow_definition_versions\"");
        await queryRunner.query("CREATE TABLE \"workflow_definition_versions\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"definition_id\" integer NOT NULL, \"number\" integer NOT NULL, \"arn\" varchar(256) NOT NULL, \"definition\" text NOT NULL, \"role_arn\" varchar(256) NOT NULL, \"revision_id\" varchar(64) NOT NULL, \"description\" varchar(256), \"created_at\" datetime NOT NULL, CONSTRAINT \"FK_1b101ed70113ae7fa2da7c9d028\" FOREIGN KEY (\"definition_id\") REFERENCES \"workflow_definitions\" (\"id\") ON DELETE CASCADE ON UPDATE NO ACTION)");
        await queryRunner.query("INSERT INTO \"workflow_definition_versions\"(\"id\", \"definition_id\", \"number\", \"arn\", \"definition\", \"role_arn\", \"revision_id\", \"description\", \"created_at\") SELECT \"id\", \"definition_id\", \"number\", \"arn\", \"definition\", \"role_arn\", \"revision_id\", \"description\", \"created_at\" FROM \"temporary_workflow_definition_versions\"");
        await queryRunner.query("DROP TABLE \"temporary_workflow_definition_versions\"");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definition_versions_arn\" ON \"workflow_definition_versions\" (\"arn\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definition_versions_number\" ON \"workflow_definition_versions\" (\"definition_id\", \"number\") ");
        await queryRunner.query("DROP INDEX \"IDX_workflow_definitions_created_by\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_definitions_name\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_definitions_arn\"");
        await queryRunner.query("ALTER TABLE \"workflow_definitions\" RENAME TO \"temporary_workflow_definitions\"");
        await queryRunner.query("CREATE TABLE \"workflow_definitions\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"arn\" varchar(256) NOT NULL, \"name\" varchar(80) NOT NULL, \"definition\" text NOT NULL, \"role_arn\" varchar(256) NOT NULL, \"type\" varchar(16) NOT NULL DEFAULT ('STANDARD'), \"status\" varchar(16) NOT NULL DEFAULT ('ACTIVE'), \"created_by\" integer, \"created_at\" datetime NOT NULL, \"updated_at\" datetime NOT NULL, \"revision_id\" varchar(64) NOT NULL, \"last_version\" integer NOT NULL DEFAULT (0), CONSTRAINT \"FK_837d9fc6816d3663b36e6b03d7a\" FOREIGN KEY (\"created_by\") REFERENCES \"accounts\" (\"id\") ON DELETE SET NULL ON UPDATE NO ACTION)");
        await queryRunner.query("INSERT INTO \"workflow_definitions\"(\"id\", \"arn\", \"name\", \"definition\", \"role_arn\", \"type\", \"status\", \"created_by\", \"created_at\", \"updated_at\", \"revision_id\", \"last_version\") SELECT \"id\", \"arn\", \"name\", \"definition\", \"role_arn\", \"type\", \"status\", \"created_by\", \"created_at\", \"updated_at\", \"revision_id\", \"last_version\" FROM \"temporary_workflow_definitions\"");
        await queryRunner.query("DROP TABLE \"temporary_workflow_definitions\"");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_definitions_created_by\" ON \"workflow_definitions\" (\"created_by\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definitions_name\" ON \"workflow_definitions\" (\"name\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definitions_arn\" ON \"workflow_definitions\" (\"arn\") ");
    }
}
