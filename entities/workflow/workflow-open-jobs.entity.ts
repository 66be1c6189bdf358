import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How many jobs are open (RUNNING), kept by database triggers on `workflow_jobs` (a job inserted running, a status
 * change into or out of RUNNING, a delete: migration WorkflowOpenJobs), so every way a job starts, ends, is stopped
 * or redriven keeps it exact, atomically with that change. On PostgreSQL the triggers run at commit
 * (WorkflowOpenJobsAtCommit): a counter row is then the last row a transaction locks, so it cannot take part in a
 * deadlock with the other rows a transaction writes (a Map Run's counters and its children). Spread over 16 rows
 * (by job id) so that concurrent starts and ends do not all wait for one row's lock. StartExecution and
 * RedriveExecution read the sum for WORKFLOW_MAX_OPEN_JOBS instead of counting the running jobs (a count grows with
 * them: up to the 1,000,000 of the quota). Never written by the application.
 */
@Entity('workflow_open_jobs')
export class WorkflowOpenJobsEntity {
  @PrimaryColumn({ type: 'integer' })
  shard: number;

  @Column({ type: 'integer', default: 0 })
  jobs: number;
}
