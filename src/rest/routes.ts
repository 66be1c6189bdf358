import { WORKFLOW_ROUTES } from './aws/workflow.routes';
import { githubIdentityRoutes } from './github/identity.routes';
import { githubSecretScanningRoutes } from './github/secret-scanning.routes';
import { withGeneratedRoutes } from './register';
import type { RestRoute } from './route-table';
import { withCalendarResponses } from './wordpress/calendar.openapi';
import { CALENDAR_EVENT_ROUTES } from './wordpress/calendar-events.routes';
import { CALENDAR_FEED_ROUTES } from './wordpress/calendar-feed.routes';
import { CALENDAR_PLACE_ROUTES } from './wordpress/calendar-places.routes';
import { CALENDAR_TERM_ROUTES } from './wordpress/calendar-terms.routes';

/**
 * Every REST route of every family, the rows families derive from them included (WordPress: each namespace's
 * index and /doc), so everything generated from the table (OpenAPI, the fuzz test) covers them too.
 */
export const REST_ROUTES: RestRoute<any, any>[] = withGeneratedRoutes([
  ...githubIdentityRoutes,
  ...githubSecretScanningRoutes,
  ...withCalendarResponses([...CALENDAR_EVENT_ROUTES, ...CALENDAR_PLACE_ROUTES, ...CALENDAR_TERM_ROUTES]),
  ...CALENDAR_FEED_ROUTES,
  ...WORKFLOW_ROUTES,
]);
