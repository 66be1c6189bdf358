import { MigrationInterface, QueryRunner } from 'typeorm';

export class JobCredential1795474377021 implements MigrationInterface {
    name = 'JobCredential1795474377021';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" ADD \"started_credential\" character varying(200)");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" ADD \"role_arn\" character varying(256)");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" DROP COLUMN \"role_arn\"");
        await queryRunner.query("ALTER TABLE \"workflow_jobs\" DROP COLUMN \"started_credential\"");
    }
}
