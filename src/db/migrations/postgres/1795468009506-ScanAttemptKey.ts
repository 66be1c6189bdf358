import { MigrationInterface, QueryRunner } from 'typeorm';

export class ScanAttemptKey1795468009506 implements MigrationInterface {
    name = 'ScanAttemptKey1795468009506';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"secret_scanning_scans\" ADD \"attempt_key_hash\" character varying(64)");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_ss_scans_attempt_key\" ON \"secret_scanning_scans\"  (\"attempt_key_hash\") ");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"public\".\"UQ_ss_scans_attempt_key\"");
        await queryRunner.query("ALTER TABLE \"secret_scanning_scans\" DROP COLUMN \"attempt_key_hash\"");
    }
}
