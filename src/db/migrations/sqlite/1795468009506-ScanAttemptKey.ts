import { MigrationInterface, QueryRunner } from 'typeorm';

export class ScanAttemptKey1795468009506 implements MigrationInterface {
    name = 'ScanAttemptKey1795468009506';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"IDX_ss_scans_repo_kind\"");
        await queryRunner.query("CREATE TABLE \"temporary_secret_scanning_scans\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"repository_id\" integer NOT NULL, \"kind\" varchar(32) NOT NULL, \"type\" varchar(32) NOT NULL, \"status\" varchar(16) NOT NULL, \"started_at\" datetime, \"completed_at\" datetime, \"pattern_slug\" varchar(100), \"pattern_scope\" varchar(32), \"alerts_found\" integer NOT NULL DEFAULT (0), \"attempt_key_hash\" varchar(64))");
        await queryRunner.query("INSERT INTO \"temporary_secret_scanning_scans\"(\"id\", \"repository_id\", \"kind\", \"type\", \"status\", \"started_at\", \"completed_at\", \"pattern_slug\", \"pattern_scope\", \"alerts_found\") SELECT \"id\", \"repository_id\", \"kind\", \"type\", \"status\", \"started_at\", \"completed_at\", \"pattern_slug\", \"pattern_scope\", \"alerts_found\" FROM \"secret_scanning_scans\"");
        await queryRunner.query("DROP TABLE \"secret_scanning_scans\"");
        await queryRunner.query("ALTER TABLE \"temporary_secret_scanning_scans\" RENAME TO \"secret_scanning_scans\"");
        await queryRunner.query("CREATE INDEX \"IDX_ss_scans_repo_kind\" ON \"secret_scanning_scans\" (\"repository_id\", \"kind\", \"id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_ss_scans_attempt_key\" ON \"secret_scanning_scans\" (\"attempt_key_hash\") ");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"UQ_ss_scans_attempt_key\"");
        await queryRunner.query("DROP INDEX \"IDX_ss_scans_repo_kind\"");
        await queryRunner.query("ALTER TABLE \"secret_scanning_scans\" RENAME TO \"temporary_secret_scanning_scans\"");
        await queryRunner.query("CREATE TABLE \"secret_scanning_scans\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"repository_id\" integer NOT NULL, \"kind\" varchar(32) NOT NULL, \"type\" varchar(32) NOT NULL, \"status\" varchar(16) NOT NULL, \"started_at\" datetime, \"completed_at\" datetime, \"pattern_slug\" varchar(100), \"pattern_scope\" varchar(32), \"alerts_found\" integer NOT NULL DEFAULT (0))");
        await queryRunner.query("INSERT INTO \"secret_scanning_scans\"(\"id\", \"repository_id\", \"kind\", \"type\", \"status\", \"started_at\", \"completed_at\", \"pattern_slug\", \"pattern_scope\", \"alerts_found\") SELECT \"id\", \"repository_id\", \"kind\", \"type\", \"status\", \"started_at\", \"completed_at\", \"pattern_slug\", \"pattern_scope\", \"alerts_found\" FROM \"temporary_secret_scanning_scans\"");
        await queryRunner.query("DROP TABLE \"temporary_secret_scanning_scans\"");
        await queryRunner.query("CREATE INDEX \"IDX_ss_scans_repo_kind\" ON \"secret_scanning_scans\" (\"repository_id\", \"kind\", \"id\") ");
    }
}
