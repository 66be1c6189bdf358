// The workflow domain's entities (TypeORM only).
export * from './workflow-activity.entity';
export * from './workflow-connection.entity';
export * from './workflow-definition.entity';
export * from './workflow-job-event.entity';
export * from './workflow-job.entity';
export * from './workflow-map-run.entity';
export * from './workflow-task.entity';
export * from './workflow-definition-version.entity';
export * from './workflow-definition-alias.entity';
export * from './workflow-tag.entity';
export * from './workflow-open-jobs.entity';
export * from './workflow-express-run.entity';
