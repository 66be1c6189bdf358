import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowVersionsAliasesTags1795840900092 implements MigrationInterface {
    name = 'WorkflowVersionsAliasesTags1795840900092';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"workflow_definition_versions\" (\"id\" SERIAL NOT NULL, \"definition_id\" integer NOT NULL, \"number\" integer NOT NULL, \"arn\" character varying(256) NOT NULL, \"definition\" text NOT NULL, \"role_arn\" character varying(256) NOT NULL, \"revision_id\" character varying(64) NOT NULL, \"description\" character varying(256), \"created_at\" TIMESTAMP NOT NULL, CONSTRAINT \"PK_68c6710e79b6f60d1be76c0ba0b\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definition_versions_arn\" ON \"workflow_definition_versions\"  (\"arn\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definition_versions_number\" ON \"workflow_definition_versions\"  (\"definition_id\", \"number\") ");
        await queryRunner.query("CREATE TABLE \"workflow_definition_aliases\" (\"id\" SERIAL NOT NULL, \"definition_id\" integer NOT NULL, \"name\" character varying(80) NOT NULL, \"arn\" character varying(256) NOT NULL, \"description\" character varying(256), \"routing\" text NOT NULL, \"created_at\" TIMESTAMP NOT NULL, \"updated_at\" TIMESTAMP NOT NULL, CONSTRAINT \"PK_d747aad2e412b967d27cae704eb\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definition_aliases_arn\" ON \"workflow_definition_aliases\"  (\"arn\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_definition_aliases_name\" ON \"workflow_definition_aliases\"  (\"definition_id\", \"name\") ");
        await queryRunner.query("CREATE TABLE \"workflow_tags\" (\"id\" SERIAL NOT NULL, \"resource_arn\" character varying(256) NOT NULL, \"key\" character varying(128) NOT NULL, \"value\" character varying(256) NOT NULL, CONSTRAINT \"PK_3b3a9ed5ff626047ffcd2a8c05c\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_tags_resource_key\" ON \"workflow_tags\"  (\"resource_arn\", \"key\") ");
        await queryRunner.query("ALTER TABLE \"workflow_definitions\" ADD \"last_version\" integer NOT NULL DEFAULT '0'");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" ADD \"version_arn\" character varying(256)");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" ADD \"alias_arn\" character varying(256)");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" ADD \"revision_id\" character varying(64)");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" ADD \"revision_date\" TIMESTAMP");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_alias_start\" ON \"workflow_jobs\"  (\"alias_arn\", \"start_date\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_jobs_version_start\" ON \"workflow_jobs\"  (\"version_arn\", \"start_date\", \"id\") ");
        await queryRunner.query("ALTER TABLE \"workflow_definition_versions\" ADD CONSTRAINT \"FK_1b101ed70113ae7fa2da7c9d028\" FOREIGN KEY (\"definition_id\") REFERENCES \"workflow_definitions\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"workflow_definition_aliases\" ADD CONSTRAINT \"FK_103632ad009d95479f309c3a5c7\" FOREIGN KEY (\"definition_id\") REFERENCES \"workflow_definitions\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"workflow_definition_aliases\" DROP CONSTRAINT \"FK_103632ad009d95479f309c3a5c7\"");
        await queryRunner.query("ALTER TABLE \"workflow_definition_versions\" DROP CONSTRAINT \"FK_1b101ed70113ae7fa2da7c9d028\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_jobs_version_start\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_jobs_alias_start\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" DROP COLUMN \"revision_date\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" DROP COLUMN \"revision_id\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" DROP COLUMN \"alias_arn\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" DROP COLUMN \"version_arn\"");
        await queryRunner.query("ALTER TABLE \"workflow_definitions\" DROP COLUMN \"last_version\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_tags_resource_key\"");
        await queryRunner.query("DROP TABLE \"workflow_tags\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_definition_aliases_name\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_definition_aliases_arn\"");
        await queryRunner.query("DROP TABLE \"workflow_definition_aliases\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_definition_versions_number\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_definition_versions_arn\"");
        await queryRunner.query("DROP TABLE \"workflow_definition_versions\"");
    }
}
