import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowOpenJobs1795850267135 implements MigrationInterface {
    name = 'WorkflowOpenJobs1795850267135';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"workflow_open_jobs\" (\"shard\" integer NOT NULL, \"jobs\" integer NOT NULL DEFAULT '0', CONSTRAINT \"PK_ea4b805c70e121fc0d8b1bce260\" PRIMARY KEY (\"shard\"))");
        // Written only by these triggers (entities/workflow/workflow-open-jobs.entity.ts): +1 when a job row is
        // inserted running or its status becomes RUNNING (a redrive), -1 when it leaves RUNNING or a running row goes.
        await queryRunner.query("CREATE FUNCTION \"workflow_open_jobs_keep\"() RETURNS trigger LANGUAGE plpgsql AS $$\nDECLARE\n  d integer := 0;\n  s integer;\nBEGIN\n  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.\"status\" = 'RUNNING' THEN\n    d := d - 1;\n    s := OLD.\"id\" % 16;\n  END IF;\n  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.\"status\" = 'RUNNING' THEN\n    d := d + 1;\n    s := NEW.\"id\" % 16;\n  END IF;\n  IF d <> 0 THEN\n    INSERT INTO \"workflow_open_jobs\" (\"shard\", \"jobs\") VALUES (s, d)\n    ON CONFLICT (\"shard\") DO UPDATE SET \"jobs\" = \"workflow_open_jobs\".\"jobs\" + d;\n  END IF;\n  RETURN NULL;\nEND $$");
        await queryRunner.query("CREATE TRIGGER \"trg_workflow_open_jobs_insert_delete\" AFTER INSERT OR DELETE ON \"workflow_jobs\" FOR EACH ROW EXECUTE FUNCTION \"workflow_open_jobs_keep\"()");
        await queryRunner.query("CREATE TRIGGER \"trg_workflow_open_jobs_status\" AFTER UPDATE OF \"status\" ON \"workflow_jobs\" FOR EACH ROW WHEN ((OLD.\"status\" = 'RUNNING') IS DISTINCT FROM (NEW.\"status\" = 'RUNNING')) EXECUTE FUNCTION \"workflow_open_jobs_keep\"()");
        await queryRunner.query("INSERT INTO \"workflow_open_jobs\" (\"shard\", \"jobs\") SELECT \"id\" % 16, COUNT(*) FROM \"workflow_jobs\" WHERE \"status\" = 'RUNNING' GROUP BY \"id\" % 16");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP TRIGGER \"trg_workflow_open_jobs_status\" ON \"workflow_jobs\"");
        await queryRunner.query("DROP TRIGGER \"trg_workflow_open_jobs_insert_delete\" ON \"workflow_jobs\"");
        await queryRunner.query("DROP FUNCTION \"workflow_open_jobs_keep\"()");
        await queryRunner.query("DROP TABLE \"workflow_open_jobs\"");
    }
}
