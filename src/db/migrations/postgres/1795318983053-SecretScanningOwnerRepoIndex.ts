import { MigrationInterface, QueryRunner } from 'typeorm';

export class SecretScanningOwnerRepoIndex1795318983053 implements MigrationInterface {
    name = 'SecretScanningOwnerRepoIndex1795318983053';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_owner_repo\" ON \"secret_scanning_alerts\"  (\"owner_id\", \"repository_id\") ");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_owner_repo\"");
    }
}
