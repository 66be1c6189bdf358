import { CalendarEventEntity } from './calendar/calendar-event.entity';
import { CalendarEventSourceEntity } from './calendar/calendar-event-source.entity';
import { CalendarEventOrganizerEntity, CalendarEventTermEntity, CalendarEventVenueEntity } from './calendar/calendar-links.entity';
import { CalendarOrganizerEntity } from './calendar/calendar-organizer.entity';
import { CalendarPostEntity } from './calendar/calendar-post.entity';
import { CalendarTermEntity } from './calendar/calendar-term.entity';
import { CalendarTranslationEntity } from './calendar/calendar-translation.entity';
import { CalendarVenueEntity } from './calendar/calendar-venue.entity';
import { AccessTokenEntity } from './identity/access-token.entity';
import { AccountEntity } from './identity/account.entity';
import { MembershipEntity } from './identity/membership.entity';
import { RepositoryCollaboratorEntity } from './identity/repository-collaborator.entity';
import { RepositoryEntity } from './identity/repository.entity';
import { ServerSettingEntity } from './identity/server-setting.entity';
import { WorkflowAccessKeyEntity } from './identity/workflow-access-key.entity';
import { RepositoryTotalEntity } from './identity/repository-total.entity';
import { PushProtectionPlaceholderEntity } from './secret-scanning/push-protection-placeholder.entity';
import { SecretScanningAlertEntity } from './secret-scanning/secret-scanning-alert.entity';
import { SecretScanningContentEntity } from './secret-scanning/secret-scanning-content.entity';
import { SecretScanningAlertCounterEntity } from './secret-scanning/secret-scanning-counter.entity';
import { SecretScanningLocationEntity } from './secret-scanning/secret-scanning-location.entity';
import { SecretScanningScanEntity } from './secret-scanning/secret-scanning-scan.entity';
import { SecretScanningAlertTotalEntity } from './secret-scanning/secret-scanning-total.entity';
import { WorkflowActivityEntity } from './workflow/workflow-activity.entity';
import { WorkflowConnectionEntity } from './workflow/workflow-connection.entity';
import { WorkflowDefinitionEntity } from './workflow/workflow-definition.entity';
import { WorkflowJobEventEntity } from './workflow/workflow-job-event.entity';
import { WorkflowJobEntity } from './workflow/workflow-job.entity';
import { WorkflowMapRunEntity } from './workflow/workflow-map-run.entity';
import { WorkflowTaskEntity } from './workflow/workflow-task.entity';

export * from './calendar/calendar-event.entity';
export * from './calendar/calendar-event-source.entity';
export * from './calendar/calendar-links.entity';
export * from './calendar/calendar-organizer.entity';
export * from './calendar/calendar-post.entity';
export * from './calendar/calendar-post-columns';
export * from './calendar/calendar-term.entity';
export * from './calendar/calendar-translation.entity';
export * from './calendar/calendar-venue.entity';
export * from './identity/access-token.entity';
export * from './identity/account.entity';
export * from './identity/membership.entity';
export * from './identity/repository-collaborator.entity';
export * from './identity/repository.entity';
export * from './identity/repository-total.entity';
export * from './identity/server-setting.entity';
export * from './identity/workflow-access-key.entity';
export * from './secret-scanning/push-protection-placeholder.entity';
export * from './secret-scanning/secret-scanning-alert.entity';
export * from './secret-scanning/secret-scanning-content.entity';
export * from './secret-scanning/secret-scanning-counter.entity';
export * from './secret-scanning/secret-scanning-location.entity';
export * from './secret-scanning/secret-scanning-scan.entity';
export * from './secret-scanning/secret-scanning-total.entity';
export * from './workflow/workflow-activity.entity';
export * from './workflow/workflow-connection.entity';
export * from './workflow/workflow-definition.entity';
export * from './workflow/workflow-job-event.entity';
export * from './workflow/workflow-job.entity';
export * from './workflow/workflow-map-run.entity';
export * from './workflow/workflow-task.entity';

/** Every entity of every domain; ormconfig.ts registers exactly this list. */
export const ENTITIES = [
  AccountEntity,
  MembershipEntity,
  RepositoryEntity,
  RepositoryCollaboratorEntity,
  RepositoryTotalEntity,
  AccessTokenEntity,
  WorkflowAccessKeyEntity,
  ServerSettingEntity,
  SecretScanningAlertEntity,
  SecretScanningLocationEntity,
  SecretScanningAlertCounterEntity,
  SecretScanningAlertTotalEntity,
  PushProtectionPlaceholderEntity,
  SecretScanningScanEntity,
  SecretScanningContentEntity,
  CalendarPostEntity,
  CalendarEventEntity,
  CalendarVenueEntity,
  CalendarOrganizerEntity,
  CalendarTermEntity,
  CalendarEventVenueEntity,
  CalendarEventOrganizerEntity,
  CalendarEventTermEntity,
  CalendarTranslationEntity,
  CalendarEventSourceEntity,
  WorkflowDefinitionEntity,
  WorkflowJobEntity,
  WorkflowJobEventEntity,
  WorkflowActivityEntity,
  WorkflowTaskEntity,
  WorkflowMapRunEntity,
  WorkflowConnectionEntity,
];
