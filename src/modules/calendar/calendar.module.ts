/**
 * Calendar (The Events Calendar's model): events, venues, organizers, categories and tags, translations,
 * iCalendar imports (parsed in worker threads) and the .ics feed.
 */
import {
  CalendarEventEntity,
  CalendarEventOrganizerEntity,
  CalendarEventSourceEntity,
  CalendarEventTermEntity,
  CalendarEventVenueEntity,
  CalendarOrganizerEntity,
  CalendarPostEntity,
  CalendarTermEntity,
  CalendarTranslationEntity,
  CalendarVenueEntity,
} from '../../../entities/calendar';
import type * as CalendarResolvers from '../../../resolvers/calendar';
import { Calendar1795453034358 as SqliteCalendar } from '../../db/migrations/sqlite/1795453034358-Calendar';
import { CalendarTermCount1795456435981 as SqliteTermCount } from '../../db/migrations/sqlite/1795456435981-CalendarTermCount';
import { CalendarWindowIndex1795456692618 as SqliteWindowIndex } from '../../db/migrations/sqlite/1795456692618-CalendarWindowIndex';
import { CalendarEventSources1795464972962 as SqliteEventSources } from '../../db/migrations/sqlite/1795464972962-CalendarEventSources';
import { Calendar1795453034358 as PostgresCalendar } from '../../db/migrations/postgres/1795453034358-Calendar';
import { CalendarTermCount1795456435981 as PostgresTermCount } from '../../db/migrations/postgres/1795456435981-CalendarTermCount';
import { CalendarWindowIndex1795456692618 as PostgresWindowIndex } from '../../db/migrations/postgres/1795456692618-CalendarWindowIndex';
import { CalendarEventSources1795464972962 as PostgresEventSources } from '../../db/migrations/postgres/1795464972962-CalendarEventSources';
import { createCalendarLoaders } from '../../loaders/calendar';
import { withCalendarResponses } from '../../rest/wordpress/calendar.openapi';
import { CALENDAR_EVENT_ROUTES } from '../../rest/wordpress/calendar-events.routes';
import { CALENDAR_FEED_ROUTES } from '../../rest/wordpress/calendar-feed.routes';
import { CALENDAR_PLACE_ROUTES } from '../../rest/wordpress/calendar-places.routes';
import { CALENDAR_TERM_ROUTES } from '../../rest/wordpress/calendar-terms.routes';
import { CalendarEventService } from '../../services/calendar/events.service';
import { CalendarImportService } from '../../services/calendar/import.service';
import { CalendarOrganizerService } from '../../services/calendar/organizers.service';
import { CalendarTermService } from '../../services/calendar/terms.service';
import { CalendarVenueService } from '../../services/calendar/venues.service';
import { defineModule, ServicesOf } from '../module';

export const calendarModule = defineModule({
  name: 'calendar',
  requires: ['identity'],
  entities: [
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
  ],
  migrations: {
    sqlite: [SqliteCalendar, SqliteTermCount, SqliteWindowIndex, SqliteEventSources],
    postgres: [PostgresCalendar, PostgresTermCount, PostgresWindowIndex, PostgresEventSources],
  },
  services() {
    const terms = new CalendarTermService();
    const venues = new CalendarVenueService();
    const organizers = new CalendarOrganizerService();
    const events = new CalendarEventService({ terms, venues, organizers });
    return {
      /** calendar: events (list with the plugin's filters, reads, writes, trash) */
      calendarEvents: events,
      /** calendar venues: lists, reads, writes, trash, linked creation from event writes */
      calendarVenues: venues,
      /** calendar organizers: lists, reads, writes, trash, linked creation from event writes */
      calendarOrganizers: organizers,
      /** calendar: event categories and tags (lists, single, create, update, delete; event-filter lookups) */
      calendarTerms: terms,
      /** calendar: iCalendar imports (parsed off the main thread; repeatable, keyed by UID) */
      calendarImport: new CalendarImportService(events),
    };
  },
  loaders: createCalendarLoaders,
  resolvers() {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('../../../resolvers/calendar') as typeof CalendarResolvers).CALENDAR_RESOLVERS;
  },
  routes: {
    wordpress: [...withCalendarResponses([...CALENDAR_EVENT_ROUTES, ...CALENDAR_PLACE_ROUTES, ...CALENDAR_TERM_ROUTES]), ...CALENDAR_FEED_ROUTES],
  },
  // The iCalendar parser's threads end.
  close: (services) => services.calendarImport.close(),
});

export type CalendarServices = ServicesOf<typeof calendarModule>;
