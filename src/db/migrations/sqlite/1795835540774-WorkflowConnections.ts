import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowConnections1795835540774 implements MigrationInterface {
    name = 'WorkflowConnections1795835540774';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"workflow_connections\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"arn\" varchar(256) NOT NULL, \"name\" varchar(64) NOT NULL, \"description\" varchar(512), \"authorization_type\" varchar(32) NOT NULL, \"auth_parameters\" text NOT NULL, \"secret_ciphertext\" text NOT NULL, \"created_by\" integer, \"created_at\" datetime NOT NULL)");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_connections_arn\" ON \"workflow_connections\" (\"arn\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_connections_name\" ON \"workflow_connections\" (\"name\") ");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"UQ_workflow_connections_name\"");
        await queryRunner.query("DROP INDEX \"UQ_workflow_connections_arn\"");
        await queryRunner.query("DROP TABLE \"workflow_connections\"");
    }
}
