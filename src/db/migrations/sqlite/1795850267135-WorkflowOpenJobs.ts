import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowOpenJobs1795850267135 implements MigrationInterface {
    name = 'WorkflowOpenJobs1795850267135';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"workflow_open_jobs\" (\"shard\" integer PRIMARY KEY NOT NULL, \"jobs\" integer NOT NULL DEFAULT (0))");
        // Written only by these triggers (entities/workflow/workflow-open-jobs.entity.ts): +1 when a job row is
        // inserted running or its status becomes RUNNING (a redrive), -1 when it leaves RUNNING or a running row goes.
        await queryRunner.query("CREATE TRIGGER \"trg_workflow_open_jobs_insert\" AFTER INSERT ON \"workflow_jobs\" WHEN NEW.\"status\" = 'RUNNING' BEGIN INSERT INTO \"workflow_open_jobs\" (\"shard\", \"jobs\") VALUES (NEW.\"id\" % 16, 1) ON CONFLICT (\"shard\") DO UPDATE SET \"jobs\" = \"jobs\" + 1; END");
        await queryRunner.query("CREATE TRIGGER \"trg_workflow_open_jobs_delete\" AFTER DELETE ON \"workflow_jobs\" WHEN OLD.\"status\" = 'RUNNING' BEGIN UPDATE \"workflow_open_jobs\" SET \"jobs\" = \"jobs\" - 1 WHERE \"shard\" = OLD.\"id\" % 16; END");
        await queryRunner.query("CREATE TRIGGER \"trg_workflow_open_jobs_status\" AFTER UPDATE OF \"status\" ON \"workflow_jobs\" WHEN (OLD.\"status\" = 'RUNNING') IS NOT (NEW.\"status\" = 'RUNNING') BEGIN INSERT INTO \"workflow_open_jobs\" (\"shard\", \"jobs\") VALUES (NEW.\"id\" % 16, CASE WHEN NEW.\"status\" = 'RUNNING' THEN 1 ELSE -1 END) ON CONFLICT (\"shard\") DO UPDATE SET \"jobs\" = \"jobs\" + excluded.\"jobs\"; END");
        await queryRunner.query("INSERT INTO \"workflow_open_jobs\" (\"shard\", \"jobs\") SELECT \"id\" % 16, COUNT(*) FROM \"workflow_jobs\" WHERE \"status\" = 'RUNNING' GROUP BY \"id\" % 16");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP TRIGGER \"trg_workflow_open_jobs_status\"");
        await queryRunner.query("DROP TRIGGER \"trg_workflow_open_jobs_delete\"");
        await queryRunner.query("DROP TRIGGER \"trg_workflow_open_jobs_insert\"");
        await queryRunner.query("DROP TABLE \"workflow_open_jobs\"");
    }
}
