/**
 * Workflow (Step Functions' model): state machines, jobs (executions) and their history, activities and task
 * tokens, the job runner (embedded, BullMQ queue, dispatch or off: WORKFLOW_RUNNER) and its metrics. Jobs' tasks
 * may call the secret scanning and calendar services.
 */
import {
  WorkflowActivityEntity,
  WorkflowConnectionEntity,
  WorkflowDefinitionEntity,
  WorkflowJobEntity,
  WorkflowJobEventEntity,
  WorkflowMapRunEntity,
  WorkflowTaskEntity,
  WorkflowDefinitionVersionEntity,
  WorkflowDefinitionAliasEntity,
  WorkflowTagEntity,
  WorkflowOpenJobsEntity,
  WorkflowExpressRunEntity,
} from '../../../entities/workflow';
import type * as WorkflowResolvers from '../../../resolvers/workflow/workflow.resolver';
import { Workflow1795464180426 as SqliteWorkflow } from '../../db/migrations/sqlite/1795464180426-Workflow';
import { JobCredential1795474377021 as SqliteJobCredential } from '../../db/migrations/sqlite/1795474377021-JobCredential';
import { WorkflowActivities1795823891852 as SqliteActivities } from '../../db/migrations/sqlite/1795823891852-WorkflowActivities';
import { WorkflowConnections1795835540774 as SqliteConnections } from '../../db/migrations/sqlite/1795835540774-WorkflowConnections';
import { WorkflowMapRuns1795837947896 as SqliteMapRuns } from '../../db/migrations/sqlite/1795837947896-WorkflowMapRuns';
import { WorkflowVersionsAliasesTags1795840900092 as SqliteVersions } from '../../db/migrations/sqlite/1795840900092-WorkflowVersionsAliasesTags';
import { WorkflowOpenJobs1795850267135 as SqliteOpenJobs } from '../../db/migrations/sqlite/1795850267135-WorkflowOpenJobs';
import { WorkflowMapRunRedrive1795853296278 as SqliteMapRunRedrive } from '../../db/migrations/sqlite/1795853296278-WorkflowMapRunRedrive';
import { WorkflowLoggingConfiguration1795859632231 as SqliteLogging } from '../../db/migrations/sqlite/1795859632231-WorkflowLoggingConfiguration';
import { WorkflowExpressRuns1795861978006 as SqliteExpressRuns } from '../../db/migrations/sqlite/1795861978006-WorkflowExpressRuns';
import { Workflow1795464180426 as PostgresWorkflow } from '../../db/migrations/postgres/1795464180426-Workflow';
import { JobCredential1795474377021 as PostgresJobCredential } from '../../db/migrations/postgres/1795474377021-JobCredential';
import { WorkflowActivities1795823891852 as PostgresActivities } from '../../db/migrations/postgres/1795823891852-WorkflowActivities';
import { WorkflowConnections1795835540774 as PostgresConnections } from '../../db/migrations/postgres/1795835540774-WorkflowConnections';
import { WorkflowMapRuns1795837947896 as PostgresMapRuns } from '../../db/migrations/postgres/1795837947896-WorkflowMapRuns';
import { WorkflowVersionsAliasesTags1795840900092 as PostgresVersions } from '../../db/migrations/postgres/1795840900092-WorkflowVersionsAliasesTags';
import { WorkflowOpenJobs1795850267135 as PostgresOpenJobs } from '../../db/migrations/postgres/1795850267135-WorkflowOpenJobs';
import { WorkflowMapRunRedrive1795853296278 as PostgresMapRunRedrive } from '../../db/migrations/postgres/1795853296278-WorkflowMapRunRedrive';
import { WorkflowLoggingConfiguration1795859632231 as PostgresLogging } from '../../db/migrations/postgres/1795859632231-WorkflowLoggingConfiguration';
import { WorkflowExpressRuns1795861978006 as PostgresExpressRuns } from '../../db/migrations/postgres/1795861978006-WorkflowExpressRuns';
import { WorkflowOpenJobsAtCommit1795873405538 as PostgresOpenJobsAtCommit } from '../../db/migrations/postgres/1795873405538-WorkflowOpenJobsAtCommit';
import { createWorkflowLoaders } from '../../loaders/workflow';
import type * as WorkflowMetrics from '../../observability/workflow-metrics';
import { WORKFLOW_ROUTES } from '../../rest/aws/workflow.routes';
import { WorkflowActivityService } from '../../services/workflow/activities.service';
import { WorkflowConnectionService } from '../../services/workflow/connections.service';
import { WorkflowDefinitionService } from '../../services/workflow/definitions.service';
import { WorkflowExpressService } from '../../services/workflow/express.service';
import { WorkflowJobService } from '../../services/workflow/jobs.service';
import { PageTokenKeys } from '../../services/workflow/page-token';
import { WorkflowTaskService } from '../../services/workflow/runner/tasks';
import { WorkflowTagService } from '../../services/workflow/tags.service';
import { WorkflowTestStateService } from '../../services/workflow/test-state.service';
import { WorkflowVersionService } from '../../services/workflow/versions.service';
import type * as WorkflowRunning from '../../services/workflow/runner/setup';
import type { CalendarServices } from '../calendar/calendar.module';
import type { IdentityServices } from '../identity/identity.module';
import type { SecretScanningServices } from '../secret-scanning/secret-scanning.module';
import { defineModule, ServicesOf } from '../module';

export const workflowModule = defineModule({
  name: 'workflow',
  requires: ['identity', 'secret-scanning', 'calendar'],
  entities: [WorkflowDefinitionEntity, WorkflowJobEntity, WorkflowJobEventEntity, WorkflowActivityEntity, WorkflowTaskEntity, WorkflowMapRunEntity, WorkflowConnectionEntity, WorkflowDefinitionVersionEntity, WorkflowDefinitionAliasEntity, WorkflowTagEntity, WorkflowOpenJobsEntity, WorkflowExpressRunEntity],
  migrations: {
    sqlite: [SqliteWorkflow, SqliteJobCredential, SqliteActivities, SqliteConnections, SqliteMapRuns, SqliteVersions, SqliteOpenJobs, SqliteMapRunRedrive, SqliteLogging, SqliteExpressRuns],
    postgres: [PostgresWorkflow, PostgresJobCredential, PostgresActivities, PostgresConnections, PostgresMapRuns, PostgresVersions, PostgresOpenJobs, PostgresMapRunRedrive, PostgresLogging, PostgresExpressRuns, PostgresOpenJobsAtCommit],
  },
  services({ identity, secretScanningPush, secretScanningAlertUpdates, calendarImport }: IdentityServices & SecretScanningServices & CalendarServices) {
    const tokenKeys = new PageTokenKeys(identity);
    const definitions = new WorkflowDefinitionService(tokenKeys);
    const connections = new WorkflowConnectionService(identity);
    const versions = new WorkflowVersionService(tokenKeys);
    // Tasks call the other domains' services as the job's starter (their access rules apply).
    const tasks = new WorkflowTaskService({ secretScanningPush, secretScanningAlertUpdates, calendarImport, workflowConnections: connections });
    const express = new WorkflowExpressService({ versions, tasks });
    return {
      /** workflow: definitions (state machines): create, describe, update, delete, list */
      workflowDefinitions: definitions,
      /** workflow: TestState (one state run by the engine, nothing stored) */
      workflowTestState: new WorkflowTestStateService(definitions, tasks),
      /** workflow: jobs (executions): start, describe, list, stop, history; the runner plugs in with setHooks */
      workflowJobs: new WorkflowJobService({ tokenKeys, versions, express }),
      /** workflow: Express executions (StartSyncExecution; StartExecution of EXPRESS machines), run in memory; asynchronous ones recorded until they end */
      workflowExpress: express,
      /** workflow: activities, GetActivityTask long polls, task tokens (SendTask*) of activities and callbacks */
      workflowActivities: new WorkflowActivityService(tokenKeys),
      /** workflow: connections of HTTP tasks (admins manage them; secrets sealed like access keys) */
      workflowConnections: connections,
      /** workflow: versions and aliases of definitions; resolves what a start of a version or alias ARN runs */
      workflowVersions: versions,
      /** workflow: tags of definitions and activities */
      workflowTags: new WorkflowTagService(),
      /** workflow: the tasks a Task state may name (runner, Express, TestState), with the services they call */
      workflowTasks: tasks,
    };
  },
  loaders: createWorkflowLoaders,
  resolvers() {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('../../../resolvers/workflow/workflow.resolver') as typeof WorkflowResolvers).WORKFLOW_RESOLVERS;
  },
  routes: { aws: WORKFLOW_ROUTES },
  metrics(metrics, _services, deps) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const observed = (require('../../observability/workflow-metrics') as typeof WorkflowMetrics).registerWorkflowMetrics(metrics, deps);
    return {
      request(req, status, seconds) {
        if (req.headers['x-amz-target'] !== undefined) observed.awsRequest(req.headers['x-amz-target'], status, seconds);
      },
    };
  },
  // Jobs run here (embedded), through BullMQ (queue, dispatch) or elsewhere (off): WORKFLOW_RUNNER. Closing aborts
  // running steps unpersisted: their jobs resume from the last transition at the next start.
  start(services, deps) {
    // Asynchronous Express executions whose process died are run again by any process that runs background work
    // (not with WORKFLOW_RUNNER=off; `npm run worker` does it too).
    if (deps.config.workflowRunner !== 'off') services.workflowExpress.start(deps);
    // The runner (and BullMQ, for the queue modes) is loaded here: the admin CLI never starts it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('../../services/workflow/runner/setup') as typeof WorkflowRunning).startWorkflowRunning(services, deps);
  },
  // Running Express executions are aborted (asynchronous ones are left recorded, to run again); the definition
  // checker's threads end.
  close: async (services) => {
    await services.workflowExpress.close();
    await services.workflowDefinitions.close();
  },
});

export type WorkflowServices = ServicesOf<typeof workflowModule>;
