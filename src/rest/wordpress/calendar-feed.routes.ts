/**
 * GET /calendar/events.ics: the iCalendar feed of any event filter, so people can subscribe from their calendar
 * apps. Outside the REST namespace but in the WordPress family (its argument checks and error answers). The
 * arguments are GET /events' (EVENT_LIST_ARGS, decoded by eventListQuery) and the events come from the same
 * service call, so filters, visibility and languages are the list's. Without `per_page`/`page` the feed covers
 * up to FEED_MAX_EVENTS events of the window (paged through the service); with them, that page.
 */
import type { RequestContext } from '../../context';
import type { EventListQuery } from '../../services/calendar/event-list';
import { MAX_PER_PAGE, wireContext } from './calendar-wire';
import { EVENT_LIST_ARGS, eventListQuery } from './calendar-events.routes';
import { FeedEvent, ICS_MEDIA_TYPE, presentFeed } from './calendar-feed.presenters';
import { wpRoute } from './params';
import type { Language } from '../../i18n';

export const CALENDAR_FEED_PATH = '/calendar/events.ics';

/** The most events a feed carries when no page is asked for. */
export const FEED_MAX_EVENTS = 500;

/** The list's arguments; page and per_page without defaults (absent = the whole window, up to FEED_MAX_EVENTS). */
const FEED_ARGS = {
  ...EVENT_LIST_ARGS,
  page: { ...EVENT_LIST_ARGS.page, default: undefined },
  per_page: { ...EVENT_LIST_ARGS.per_page, default: undefined },
};

interface FeedInput {
  query: EventListQuery;
  /** A page was asked for (per_page or page given): that page only. */
  paged: boolean;
}

/** The feed's events: one page, or pages of the window until FEED_MAX_EVENTS or the end. */
async function feedEvents(ctx: RequestContext, input: FeedInput): Promise<FeedEvent[]> {
  const service = ctx.services.calendarEvents;
  const events = [];
  if (input.paged) {
    events.push(...(await service.list(ctx, input.query)).items);
  } else {
    for (let page = 1; events.length < FEED_MAX_EVENTS; page++) {
      const perPage = Math.min(MAX_PER_PAGE, FEED_MAX_EVENTS - events.length);
      const r = await service.list(ctx, { ...input.query, page, perPage });
      events.push(...r.items);
      if (r.items.length < perPage || (page - 1) * MAX_PER_PAGE + r.items.length >= r.total) break;
    }
  }
  const relations = await service.relations(ctx, events);
  return events.map((event, i) => ({ event, relations: relations[i], masked: service.masked(ctx, event) }));
}

/** X-WR-CALNAME in the request's language (the words The Events Calendar's translations use). */
const CALENDAR_NAME: Record<Language, string> = { en: 'Events', da: 'Begivenheder', fr: 'Évènements', de: 'Veranstaltungen' };

export const CALENDAR_FEED_ROUTES = [
  wpRoute({
    method: 'GET',
    path: CALENDAR_FEED_PATH,
    operationId: 'calendarEventsFeed',
    summary: 'The iCalendar feed of the events a GET /events query matches',
    tags: ['events'],
    args: FEED_ARGS,
    responses: { '200': { description: 'An iCalendar (RFC 5545) feed', mediaType: ICS_MEDIA_TYPE } },
    input: (a): FeedInput => ({ query: eventListQuery(a), paged: a.page !== undefined || a.per_page !== undefined }),
    handle: (ctx, input: FeedInput) => feedEvents(ctx, input),
    present: (items: FeedEvent[], ctx) => {
      const wire = wireContext(ctx);
      const name = CALENDAR_NAME[wire.language ?? 'en'];
      return { status: 200, contentType: ICS_MEDIA_TYPE, body: presentFeed(items, wire, { now: ctx.config.now(), name }) };
    },
  }),
];
