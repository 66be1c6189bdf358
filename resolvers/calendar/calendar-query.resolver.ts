/**
 * The calendar's queries (issue 8, ql-events model): events with the GET /events filters, venues, organizers,
 * categories and tags, lists and single reads. Thin: args -> the calendar services (the REST routes' own; access
 * and rules live there) -> entities.
 */
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, ID, Info, Query, Resolver } from 'type-graphql';
import { CalendarEventEntity, CalendarOrganizerEntity, CalendarTermEntity, CalendarVenueEntity } from '../../entities/calendar';
import type { CalendarLanguage } from '../../entities/calendar';
import type { RequestContext } from '../../src/context';
import { ValidationError } from '../../src/errors/app-error';
import { CALENDAR_CODES } from '../../src/services/calendar/error-codes';
import { opt } from '../common/args';
import type { ConnectionShape } from '../common/connection';
import {
  CalendarLanguageEnum,
  CalendarPageArgs,
  Event,
  EventCategory,
  EventsOrder,
  EventsWhere,
  EventTag,
  EventTermsWhere,
  LinkedPostsWhere,
  Organizer,
  Venue,
} from './calendar.type';
import { databaseIdOf, contextIn, offsetConnection, readIn, unlock } from './calendar.support';
import {
  EventCategoryConnection,
  EventConnection,
  eventConnection,
  EventTagConnection,
  OrganizerConnection,
  termConnection,
  termEntities,
  VenueConnection,
} from './calendar.connections';

@Resolver()
export class CalendarQueryResolver {
  @Query(() => EventConnection, {
    description: 'Events with the GET /events filters and rules (default window today … +24 months, start date ascending; anonymous viewers see published events only).',
  })
  events(
    @Arg('where', () => EventsWhere, { nullable: true }) where: EventsWhere | null,
    @Arg('orderBy', () => EventsOrder, { nullable: true }) orderBy: EventsOrder | null,
    @Args() args: CalendarPageArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionShape<CalendarEventEntity>> {
    return eventConnection(ctx, args, where, info, orderBy ? { orderBy: { field: orderBy.field, direction: orderBy.direction } } : {});
  }

  @Query(() => Event, {
    nullable: true,
    description: 'One event by id (global or database id) or slug. A protected event needs its `password` unless the viewer may edit it.',
  })
  async event(
    @Arg('id', () => ID, { nullable: true }) id: string | null,
    @Arg('slug', () => String, { nullable: true }) slug: string | null,
    @Arg('password', () => String, { nullable: true }) password: string | null,
    @Arg('language', () => CalendarLanguageEnum, { nullable: true }) language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarEventEntity> {
    const c = contextIn(ctx, language);
    const svc = c.services.calendarEvents;
    exactlyOne(id, slug);
    const e = id != null ? await svc.get(c, databaseIdOf('Event', id), password ?? undefined) : await svc.getBySlug(c, slug!, password ?? undefined);
    // Read with its password (or by someone who may edit it): shown whole.
    return readIn(c, unlock(c, e));
  }

  @Query(() => VenueConnection, { description: 'Venues, newest first (GET /venues).' })
  venues(
    @Arg('where', () => LinkedPostsWhere, { nullable: true }) where: LinkedPostsWhere | null,
    @Args() args: CalendarPageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ConnectionShape<CalendarVenueEntity>> {
    const c = contextIn(ctx, args.language);
    return offsetConnection(args, async (page, perPage) => {
      const r = await c.services.calendarVenues.list(c, { page, perPage, ...linkedWhere(where) });
      return { items: readIn(c, r.items), total: r.total };
    });
  }

  @Query(() => Venue, { nullable: true, description: 'One venue by id (global or database id) or slug.' })
  async venue(
    @Arg('id', () => ID, { nullable: true }) id: string | null,
    @Arg('slug', () => String, { nullable: true }) slug: string | null,
    @Arg('language', () => CalendarLanguageEnum, { nullable: true }) language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarVenueEntity> {
    const c = contextIn(ctx, language);
    const svc = c.services.calendarVenues;
    exactlyOne(id, slug);
    return readIn(c, id != null ? await svc.get(c, databaseIdOf('Venue', id)) : await svc.getBySlug(c, slug!));
  }

  @Query(() => OrganizerConnection, { description: 'Organizers, newest first (GET /organizers).' })
  organizers(
    @Arg('where', () => LinkedPostsWhere, { nullable: true }) where: LinkedPostsWhere | null,
    @Args() args: CalendarPageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ConnectionShape<CalendarOrganizerEntity>> {
    const c = contextIn(ctx, args.language);
    return offsetConnection(args, async (page, perPage) => {
      const r = await c.services.calendarOrganizers.list(c, { page, perPage, ...linkedWhere(where) });
      return { items: readIn(c, r.items), total: r.total };
    });
  }

  @Query(() => Organizer, { nullable: true, description: 'One organizer by id (global or database id) or slug.' })
  async organizer(
    @Arg('id', () => ID, { nullable: true }) id: string | null,
    @Arg('slug', () => String, { nullable: true }) slug: string | null,
    @Arg('language', () => CalendarLanguageEnum, { nullable: true }) language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarOrganizerEntity> {
    const c = contextIn(ctx, language);
    const svc = c.services.calendarOrganizers;
    exactlyOne(id, slug);
    return readIn(c, id != null ? await svc.get(c, databaseIdOf('Organizer', id)) : await svc.getBySlug(c, slug!));
  }

  @Query(() => EventCategoryConnection, { description: 'Event categories by name (every category unless hideEmpty).' })
  eventCategories(
    @Arg('where', () => EventTermsWhere, { nullable: true }) where: EventTermsWhere | null,
    @Args() args: CalendarPageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ConnectionShape<CalendarTermEntity>> {
    return termConnection(ctx, 'category', args, where);
  }

  @Query(() => EventTagConnection, { description: 'Event tags by name (every tag unless hideEmpty).' })
  eventTags(
    @Arg('where', () => EventTermsWhere, { nullable: true }) where: EventTermsWhere | null,
    @Args() args: CalendarPageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ConnectionShape<CalendarTermEntity>> {
    return termConnection(ctx, 'tag', args, where);
  }

  @Query(() => EventCategory, { nullable: true, description: 'One category by id (global or database id).' })
  async eventCategory(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum, { nullable: true }) language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarTermEntity> {
    const c = contextIn(ctx, language);
    return termEntities(c, [await c.services.calendarTerms.get(c, 'category', databaseIdOf('EventCategory', id))])[0];
  }

  @Query(() => EventTag, { nullable: true, description: 'One tag by id (global or database id).' })
  async eventTag(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum, { nullable: true }) language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarTermEntity> {
    const c = contextIn(ctx, language);
    return termEntities(c, [await c.services.calendarTerms.get(c, 'tag', databaseIdOf('EventTag', id))])[0];
  }
}

/** A single read names its post by exactly one of `id` and `slug`. */
function exactlyOne(id: string | null, slug: string | null): void {
  if ((id == null) === (slug == null)) {
    throw new ValidationError('Give exactly one of `id` and `slug`.', {
      domainCode: CALENDAR_CODES.INVALID_PARAM,
      fieldErrors: [{ field: 'id', code: 'invalid', message: 'Give exactly one of `id` and `slug`.' }],
    });
  }
}

function linkedWhere(where: LinkedPostsWhere | null | undefined) {
  const w = where ?? ({} as LinkedPostsWhere);
  return { search: opt(w.search), event: opt(w.event), hasEvents: opt(w.hasEvents), onlyWithUpcoming: opt(w.onlyWithUpcoming), status: opt(w.status) };
}
