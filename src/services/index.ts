/**
 * The service registry. Services are stateless (all request state comes in the context), so one set
 * serves every request of an app instance.
 */
import { CalendarOrganizerService } from './calendar/organizers.service';
import { CalendarVenueService } from './calendar/venues.service';
import { CalendarEventService } from './calendar/events.service';
import { CalendarTermService } from './calendar/terms.service';
import { CalendarImportService } from './calendar/import.service';
import { AccessService } from './identity/access.service';
import { IdentityService } from './identity/identity.service';
import { SecretScanningFindingService } from './secret-scanning/alert-findings';
import { SecretScanningAlertQueryService } from './secret-scanning/alert-queries';
import { SecretScanningAlertUpdateService } from './secret-scanning/alert-updates';
import { DetectorPool } from './secret-scanning/detector/pool';
import { SecretScanningPushService } from './secret-scanning/push.service';
import { SecretScanningScanService } from './secret-scanning/scans';
import { WorkflowActivityService } from './workflow/activities.service';
import { WorkflowConnectionService } from './workflow/connections.service';
import { WorkflowDefinitionService } from './workflow/definitions.service';
import { WorkflowJobService } from './workflow/jobs.service';

export interface ServicesOptions {
  /** Worker threads of the secret detector (default: available parallelism - 1, at least 1). */
  detectorThreads?: number;
}

export function createServices(options: ServicesOptions = {}) {
  const access = new AccessService();
  const identity = new IdentityService(access);
  return {
    access,
    identity,
    /** secret scanning: alert listings, one alert, its locations */
    secretScanningAlerts: new SecretScanningAlertQueryService(),
    /** secret scanning: alert updates (state, resolution, assignee, validity) */
    secretScanningAlertUpdates: new SecretScanningAlertUpdateService(),
    /** secret scanning: recording findings as alerts and locations */
    secretScanningFindings: new SecretScanningFindingService(),
    /** secret scanning: scan history (recording and reading scan runs) */
    secretScanningScans: new SecretScanningScanService(),
    secretScanningPush: new SecretScanningPushService(new DetectorPool(options.detectorThreads)),
    /** calendar: events (list with the plugin's filters, reads, writes, trash) */
    calendarEvents: new CalendarEventService(),
    /** calendar venues: lists, reads, writes, trash, linked creation from event writes */
    calendarVenues: new CalendarVenueService(),
    /** calendar organizers: lists, reads, writes, trash, linked creation from event writes */
    calendarOrganizers: new CalendarOrganizerService(),
    /** calendar: event categories and tags (lists, single, create, update, delete; event-filter lookups) */
    calendarTerms: new CalendarTermService(),
    /** calendar: iCalendar imports (parsed off the main thread; repeatable, keyed by UID) */
    calendarImport: new CalendarImportService(),
    /** workflow: definitions (state machines): create, describe, update, delete, list */
    workflowDefinitions: new WorkflowDefinitionService(),
    /** workflow: jobs (executions): start, describe, list, stop, history; the runner plugs in with setHooks */
    workflowJobs: new WorkflowJobService(),
    /** workflow: activities, GetActivityTask long polls, task tokens (SendTask*) of activities and callbacks */
    workflowActivities: new WorkflowActivityService(),
    /** workflow: connections of HTTP tasks (admins manage them; secrets sealed like access keys) */
    workflowConnections: new WorkflowConnectionService(identity),
  };
}

export type Services = ReturnType<typeof createServices>;
