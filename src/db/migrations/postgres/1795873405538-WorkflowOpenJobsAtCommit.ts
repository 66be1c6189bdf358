import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkflowOpenJobsAtCommit1795873405538 implements MigrationInterface {
    name = 'WorkflowOpenJobsAtCommit1795873405538';

    public async up(queryRunner: QueryRunner): Promise<void> {
        // The open-jobs counts (WorkflowOpenJobs) are kept at COMMIT instead of at the statement that changes a job's
        // status: a transaction then locks a counter row last, after every other row it writes. Kept at the statement,
        // a child job's end (its status, then its Map Run's counters) and the parent's dispatch (the run's counters,
        // then new running children) took the same two rows in opposite orders: a deadlock per dispatch, each costing
        // PostgreSQL's deadlock_timeout and a retry. PostgreSQL only: SQLite has one writer at a time.
        await queryRunner.query("DROP TRIGGER \"trg_workflow_open_jobs_status\" ON \"workflow_jobs\"");
        await queryRunner.query("DROP TRIGGER \"trg_workflow_open_jobs_insert_delete\" ON \"workflow_jobs\"");
        await queryRunner.query("CREATE CONSTRAINT TRIGGER \"trg_workflow_open_jobs_insert_delete\" AFTER INSERT OR DELETE ON \"workflow_jobs\" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION \"workflow_open_jobs_keep\"()");
        await queryRunner.query("CREATE CONSTRAINT TRIGGER \"trg_workflow_open_jobs_status\" AFTER UPDATE OF \"status\" ON \"workflow_jobs\" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ((OLD.\"status\" = 'RUNNING') IS DISTINCT FROM (NEW.\"status\" = 'RUNNING')) EXECUTE FUNCTION \"workflow_open_jobs_keep\"()");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP TRIGGER \"trg_workflow_open_jobs_status\" ON \"workflow_jobs\"");
        await queryRunner.query("DROP TRIGGER \"trg_workflow_open_jobs_insert_delete\" ON \"workflow_jobs\"");
        await queryRunner.query("CREATE TRIGGER \"trg_workflow_open_jobs_insert_delete\" AFTER INSERT OR DELETE ON \"workflow_jobs\" FOR EACH ROW EXECUTE FUNCTION \"workflow_open_jobs_keep\"()");
        await queryRunner.query("CREATE TRIGGER \"trg_workflow_open_jobs_status\" AFTER UPDATE OF \"status\" ON \"workflow_jobs\" FOR EACH ROW WHEN ((OLD.\"status\" = 'RUNNING') IS DISTINCT FROM (NEW.\"status\" = 'RUNNING')) EXECUTE FUNCTION \"workflow_open_jobs_keep\"()");
    }
}
