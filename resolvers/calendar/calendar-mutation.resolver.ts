/**
 * The calendar's writes: create, update, trash, restore and translate events, venues, organizers, categories and
 * tags. Thin: input -> the calendar services' own writes (access and rules live there) -> entities.
 */
import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { CalendarEventEntity, CalendarOrganizerEntity, CalendarTermEntity, CalendarVenueEntity } from '../../entities/calendar';
import type { CalendarLanguage, CalendarTaxonomy } from '../../entities/calendar';
import type { RequestContext } from '../../src/context';
import type { EventWrite } from '../../src/services/calendar/events.service';
import type { LinkedEntity, LinkedPostCommonInput, LinkedPostService } from '../../src/services/calendar/linked-posts';
import type { CalendarOrganizerInput } from '../../src/services/calendar/organizers.service';
import type { CalendarVenueInput } from '../../src/services/calendar/venues.service';
import {
  CalendarLanguageEnum,
  CalendarTranslationInput,
  Event,
  EventCategory,
  EventInput,
  EventTag,
  EventTermInput,
  Organizer,
  OrganizerInput,
  Venue,
  VenueInput,
} from './calendar.type';
import { databaseIdOf, contextIn, readIn, unlock } from './calendar.support';
import { termEntities } from './calendar.connections';

function eventWrite(input: EventInput): EventWrite {
  const w: EventWrite = {};
  const copy = ['title', 'startDate', 'endDate', 'description', 'excerpt', 'slug', 'status', 'timezone', 'allDay', 'cost', 'showMap', 'showMapLink', 'hideFromListings', 'sticky', 'featured', 'password'] as const;
  for (const k of copy) if (input[k] !== undefined && input[k] !== null) (w as Record<string, unknown>)[k] = input[k];
  if (input.image !== undefined) w.image = input.image;
  if (input.website !== undefined) w.website = input.website;
  if (input.categories != null) w.categories = input.categories;
  if (input.tags != null) w.tags = input.tags;
  if (input.venues != null) w.venue = input.venues;
  if (input.organizers != null) w.organizer = input.organizers;
  if (input.authorId != null) w.author = input.authorId;
  return w;
}

function venueWrite(input: VenueInput): CalendarVenueInput {
  const w: CalendarVenueInput = {};
  const copy = ['name', 'description', 'excerpt', 'slug', 'status', 'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'showMap', 'showMapLink'] as const;
  for (const k of copy) if (input[k] !== undefined && input[k] !== null) (w as Record<string, unknown>)[k] = input[k];
  if (input.stateProvince != null) w.stateprovince = input.stateProvince;
  if (input.image !== undefined) w.image = input.image;
  if (input.lat !== undefined) w.geoLat = input.lat;
  if (input.lng !== undefined) w.geoLng = input.lng;
  return w;
}

function organizerWrite(input: OrganizerInput): CalendarOrganizerInput {
  const w: CalendarOrganizerInput = {};
  const copy = ['name', 'description', 'excerpt', 'slug', 'status', 'phone', 'website', 'email'] as const;
  for (const k of copy) if (input[k] !== undefined && input[k] !== null) (w as Record<string, unknown>)[k] = input[k];
  if (input.image !== undefined) w.image = input.image;
  return w;
}

function translation(input: CalendarTranslationInput): { title?: string; description?: string; excerpt?: string; slug?: string } {
  const out: { title?: string; description?: string; excerpt?: string; slug?: string } = {};
  for (const k of ['title', 'description', 'excerpt', 'slug'] as const) if (input[k] != null) out[k] = input[k]!;
  return out;
}

// ------------------------------------------------------------------ mutations

const languageArg = () => Arg('language', () => CalendarLanguageEnum, { nullable: true, description: 'Write into (and answer in) this language.' });

@Resolver()
export class CalendarMutationResolver {
  // ---- events

  @Mutation(() => Event, { description: 'Create an event (POST /events: required title, startDate, endDate; status scale-back for those who may not publish).' })
  async createEvent(@Arg('input', () => EventInput) input: EventInput, @languageArg() language: CalendarLanguage | null, @Ctx() ctx: RequestContext): Promise<CalendarEventEntity> {
    const c = contextIn(ctx, language);
    return readIn(c, unlock(c, await c.services.calendarEvents.create(c, eventWrite(input))));
  }

  @Mutation(() => Event, { description: 'Update an event (only the fields given).' })
  async updateEvent(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => EventInput) input: EventInput,
    @languageArg() language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarEventEntity> {
    const c = contextIn(ctx, language);
    return readIn(c, unlock(c, await c.services.calendarEvents.update(c, databaseIdOf('Event', id), eventWrite(input))));
  }

  @Mutation(() => Event, { description: 'Move an event to the trash (a second delete is GONE: event-is-in-trash).' })
  async deleteEvent(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarEventEntity> {
    return readIn(ctx, unlock(ctx, await ctx.services.calendarEvents.trash(ctx, databaseIdOf('Event', id))));
  }

  @Mutation(() => Event, { description: 'Take an event out of the trash.' })
  async restoreEvent(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarEventEntity> {
    return readIn(ctx, unlock(ctx, await ctx.services.calendarEvents.restore(ctx, databaseIdOf('Event', id))));
  }

  @Mutation(() => Event, { description: 'Store the event\'s title, description, excerpt and slug in one language.' })
  async translateEvent(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum) language: CalendarLanguage,
    @Arg('input', () => CalendarTranslationInput) input: CalendarTranslationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarEventEntity> {
    const c = contextIn(ctx, language);
    return readIn(c, unlock(c, await ctx.services.calendarEvents.translate(ctx, databaseIdOf('Event', id), language, translation(input))));
  }

  // ---- venues

  @Mutation(() => Venue, { description: 'Create a venue (name required).' })
  createVenue(@Arg('input', () => VenueInput) input: VenueInput, @languageArg() language: CalendarLanguage | null, @Ctx() ctx: RequestContext): Promise<CalendarVenueEntity> {
    return createLinked(ctx, ctx.services.calendarVenues, venueWrite(input), language);
  }

  @Mutation(() => Venue)
  updateVenue(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => VenueInput) input: VenueInput,
    @languageArg() language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarVenueEntity> {
    return updateLinked(ctx, ctx.services.calendarVenues, databaseIdOf('Venue', id), venueWrite(input), language);
  }

  @Mutation(() => Venue, { description: 'Move a venue to the trash (a second delete is GONE).' })
  async deleteVenue(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarVenueEntity> {
    return readIn(ctx, await ctx.services.calendarVenues.delete(ctx, databaseIdOf('Venue', id)));
  }

  @Mutation(() => Venue)
  async restoreVenue(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarVenueEntity> {
    return readIn(ctx, await ctx.services.calendarVenues.restore(ctx, databaseIdOf('Venue', id)));
  }

  @Mutation(() => Venue, { description: 'Store the venue\'s name (`title`), description, excerpt and slug in one language.' })
  translateVenue(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum) language: CalendarLanguage,
    @Arg('input', () => CalendarTranslationInput) input: CalendarTranslationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarVenueEntity> {
    return translateLinked(ctx, ctx.services.calendarVenues, databaseIdOf('Venue', id), language, input);
  }

  // ---- organizers

  @Mutation(() => Organizer, { description: 'Create an organizer (name required).' })
  createOrganizer(@Arg('input', () => OrganizerInput) input: OrganizerInput, @languageArg() language: CalendarLanguage | null, @Ctx() ctx: RequestContext): Promise<CalendarOrganizerEntity> {
    return createLinked(ctx, ctx.services.calendarOrganizers, organizerWrite(input), language);
  }

  @Mutation(() => Organizer)
  updateOrganizer(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => OrganizerInput) input: OrganizerInput,
    @languageArg() language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarOrganizerEntity> {
    return updateLinked(ctx, ctx.services.calendarOrganizers, databaseIdOf('Organizer', id), organizerWrite(input), language);
  }

  @Mutation(() => Organizer, { description: 'Move an organizer to the trash (a second delete is GONE).' })
  async deleteOrganizer(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarOrganizerEntity> {
    return readIn(ctx, await ctx.services.calendarOrganizers.delete(ctx, databaseIdOf('Organizer', id)));
  }

  @Mutation(() => Organizer)
  async restoreOrganizer(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarOrganizerEntity> {
    return readIn(ctx, await ctx.services.calendarOrganizers.restore(ctx, databaseIdOf('Organizer', id)));
  }

  @Mutation(() => Organizer, { description: 'Store the organizer\'s name (`title`), description, excerpt and slug in one language.' })
  translateOrganizer(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum) language: CalendarLanguage,
    @Arg('input', () => CalendarTranslationInput) input: CalendarTranslationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarOrganizerEntity> {
    return translateLinked(ctx, ctx.services.calendarOrganizers, databaseIdOf('Organizer', id), language, input);
  }

  // ---- categories and tags

  @Mutation(() => EventCategory, { description: 'Create a category (name required; parent optional).' })
  createEventCategory(@Arg('input', () => EventTermInput) input: EventTermInput, @languageArg() language: CalendarLanguage | null, @Ctx() ctx: RequestContext): Promise<CalendarTermEntity> {
    return createTerm(ctx, 'category', input, language);
  }

  @Mutation(() => EventCategory)
  updateEventCategory(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => EventTermInput) input: EventTermInput,
    @languageArg() language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarTermEntity> {
    return updateTerm(ctx, 'category', databaseIdOf('EventCategory', id), input, language);
  }

  @Mutation(() => EventCategory, { description: 'Delete a category for good (its children move up); answers the category as it was.' })
  deleteEventCategory(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarTermEntity> {
    return deleteTerm(ctx, 'category', databaseIdOf('EventCategory', id));
  }

  @Mutation(() => EventCategory, { description: 'Store the category\'s name (`title`), description and slug in one language.' })
  translateEventCategory(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum) language: CalendarLanguage,
    @Arg('input', () => CalendarTranslationInput) input: CalendarTranslationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarTermEntity> {
    return translateTerm(ctx, 'category', databaseIdOf('EventCategory', id), language, input);
  }

  @Mutation(() => EventTag, { description: 'Create a tag (name required).' })
  createEventTag(@Arg('input', () => EventTermInput) input: EventTermInput, @languageArg() language: CalendarLanguage | null, @Ctx() ctx: RequestContext): Promise<CalendarTermEntity> {
    return createTerm(ctx, 'tag', input, language);
  }

  @Mutation(() => EventTag)
  updateEventTag(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => EventTermInput) input: EventTermInput,
    @languageArg() language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarTermEntity> {
    return updateTerm(ctx, 'tag', databaseIdOf('EventTag', id), input, language);
  }

  @Mutation(() => EventTag, { description: 'Delete a tag for good; answers the tag as it was.' })
  deleteEventTag(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarTermEntity> {
    return deleteTerm(ctx, 'tag', databaseIdOf('EventTag', id));
  }

  @Mutation(() => EventTag, { description: 'Store the tag\'s name (`title`), description and slug in one language.' })
  translateEventTag(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum) language: CalendarLanguage,
    @Arg('input', () => CalendarTranslationInput) input: CalendarTranslationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarTermEntity> {
    return translateTerm(ctx, 'tag', databaseIdOf('EventTag', id), language, input);
  }
}

// Venues and organizers write alike (LinkedPostService): one body each for both.

async function createLinked<E extends LinkedEntity, I extends LinkedPostCommonInput>(ctx: RequestContext, svc: LinkedPostService<E, I>, input: I, language: CalendarLanguage | null): Promise<E> {
  const c = contextIn(ctx, language);
  return readIn(c, await svc.create(c, input));
}

async function updateLinked<E extends LinkedEntity, I extends LinkedPostCommonInput>(ctx: RequestContext, svc: LinkedPostService<E, I>, id: number, input: I, language: CalendarLanguage | null): Promise<E> {
  const c = contextIn(ctx, language);
  return readIn(c, await svc.update(c, id, input));
}

async function translateLinked<E extends LinkedEntity, I extends LinkedPostCommonInput>(
  ctx: RequestContext,
  svc: LinkedPostService<E, I>,
  id: number,
  language: CalendarLanguage,
  input: CalendarTranslationInput,
): Promise<E> {
  const t = translation(input);
  return updateLinked(ctx, svc, id, { name: t.title, description: t.description, excerpt: t.excerpt, slug: t.slug } as I, language);
}

function termPatch(input: EventTermInput): { name?: string; description?: string; slug?: string; parent?: number } {
  const out: { name?: string; description?: string; slug?: string; parent?: number } = {};
  for (const k of ['name', 'description', 'slug', 'parent'] as const) if (input[k] != null) (out as Record<string, unknown>)[k] = input[k];
  return out;
}

async function createTerm(ctx: RequestContext, taxonomy: CalendarTaxonomy, input: EventTermInput, language: CalendarLanguage | null): Promise<CalendarTermEntity> {
  const c = contextIn(ctx, language);
  // A missing name is the service's own answer (empty_term_name).
  const view = await c.services.calendarTerms.create(c, taxonomy, { ...termPatch(input), name: input.name ?? '' });
  return termEntities(c, [view])[0];
}

async function updateTerm(ctx: RequestContext, taxonomy: CalendarTaxonomy, id: number, input: EventTermInput, language: CalendarLanguage | null): Promise<CalendarTermEntity> {
  const c = contextIn(ctx, language);
  return termEntities(c, [await c.services.calendarTerms.update(c, taxonomy, id, termPatch(input))])[0];
}

async function deleteTerm(ctx: RequestContext, taxonomy: CalendarTaxonomy, id: number): Promise<CalendarTermEntity> {
  return termEntities(ctx, [await ctx.services.calendarTerms.delete(ctx, taxonomy, id)])[0];
}

async function translateTerm(ctx: RequestContext, taxonomy: CalendarTaxonomy, id: number, language: CalendarLanguage, input: CalendarTranslationInput): Promise<CalendarTermEntity> {
  const c = contextIn(ctx, language);
  const t = translation(input);
  return termEntities(c, [await c.services.calendarTerms.update(c, taxonomy, id, { name: t.title, description: t.description, slug: t.slug })])[0];
}
