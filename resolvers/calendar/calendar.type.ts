/**
 * GraphQL types of the events calendar (issue 8, modelled on ql-events, reference §8): Event, Venue, Organizer,
 * EventCategory, EventTag (Node types with opaque global ids), the `events(where:)` filter, pagination args, and
 * the mutation inputs. Inputs are checked by class-validator here; every business rule stays in the services.
 * Enum values are GraphQL style (UPPER_CASE) with the services' lowercase strings as internal values.
 */
import { ArrayMaxSize, IsOptional, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { CALENDAR_LANGUAGES, CALENDAR_POST_STATUSES } from '../../entities/calendar';
import type { CalendarLanguage, CalendarPostStatus } from '../../entities/calendar';
import { enumFrom } from '../common/enum';
import { Node } from '../common/node';

// ------------------------------------------------------------------ enums

export const CalendarLanguageEnum = enumFrom(CALENDAR_LANGUAGES);
export type CalendarLanguageEnum = CalendarLanguage;
registerEnumType(CalendarLanguageEnum, {
  name: 'CalendarLanguage',
  description: 'A content language of the calendar. Reads fall back to the original content where no translation exists.',
});

export const CalendarPostStatusEnum = enumFrom(CALENDAR_POST_STATUSES);
export type CalendarPostStatusEnum = CalendarPostStatus;
registerEnumType(CalendarPostStatusEnum, { name: 'CalendarPostStatus', description: 'The WordPress status of an event, venue or organizer.' });

// ------------------------------------------------------------------ objects

@ObjectType('GeoPoint', { simpleResolvers: true, description: 'A point on the earth (WGS 84 degrees).' })
export class GeoPoint {
  @Field(() => Float) lat: number;
  @Field(() => Float) lng: number;
}

@ObjectType('Event', { implements: [Node], description: 'A calendar event (The Events Calendar `tribe_events`).' })
export class Event {
  @Field(() => ID) id: string;
  @Field(() => Int, { description: 'The numeric id the REST API uses.' }) databaseId: number;
  @Field({ description: 'The title, rendered as WordPress renders it.' }) title: string;
  @Field({ description: 'The description, rendered (paragraphs); "" when masked.' }) description: string;
  @Field({ description: 'The excerpt, rendered; "" when none or masked.' }) excerpt: string;
  @Field() slug: string;
  @Field(() => CalendarPostStatusEnum) status: CalendarPostStatus;
  @Field({ description: 'Start, local wall clock of the event\'s timezone (`Y-m-d H:i:s`).' }) startDate: string;
  @Field({ description: 'End, local wall clock of the event\'s timezone (`Y-m-d H:i:s`).' }) endDate: string;
  @Field() startDateUtc: Date;
  @Field() endDateUtc: Date;
  @Field({ description: 'The event\'s timezone as stored ("" = the site\'s).' }) timezone: string;
  @Field({ description: 'The abbreviation of the zone the times are in, at the start (e.g. CEST).' }) timezoneAbbr: string;
  @Field(() => Boolean, { nullable: true, description: 'Null when masked (password-protected).' }) allDay: boolean | null;
  @Field({ description: 'The formatted cost (`$10 – $20`, `Free`); "" when none or masked.' }) cost: string;
  @Field(() => String, { nullable: true, description: 'The lowest parsed cost value; null when none.' }) costMin: string | null;
  @Field(() => String, { nullable: true, description: 'The highest parsed cost value; null when none.' }) costMax: string | null;
  @Field() currencySymbol: string;
  @Field() currencyCode: string;
  @Field({ description: '`prefix`, `postfix` or "".' }) currencyPosition: string;
  @Field({ description: 'The event website (the permalink when none); "" when masked.' }) website: string;
  @Field(() => Boolean, { nullable: true }) showMap: boolean | null;
  @Field(() => Boolean, { nullable: true }) showMapLink: boolean | null;
  @Field(() => Boolean, { nullable: true }) hideFromListings: boolean | null;
  @Field(() => Boolean, { nullable: true }) sticky: boolean | null;
  @Field(() => Boolean, { nullable: true }) featured: boolean | null;
  @Field({ description: 'The event page (permalink).' }) url: string;
  @Field(() => String, { nullable: true, description: 'Featured image URL.' }) image: string | null;
  @Field(() => Boolean, { description: 'true when the event is password-protected and shown masked to this viewer.' }) masked: boolean;
  @Field(() => Int, { nullable: true }) authorId: number | null;
}

@ObjectType('Venue', { implements: [Node], description: 'A venue (The Events Calendar `tribe_venue`).' })
export class Venue {
  @Field(() => ID) id: string;
  @Field(() => Int) databaseId: number;
  @Field() name: string;
  @Field() description: string;
  @Field() excerpt: string;
  @Field() slug: string;
  @Field(() => CalendarPostStatusEnum) status: CalendarPostStatus;
  @Field() address: string;
  @Field() city: string;
  @Field() country: string;
  @Field() province: string;
  @Field() state: string;
  @Field() stateProvince: string;
  @Field() zip: string;
  @Field() phone: string;
  @Field() website: string;
  @Field(() => GeoPoint, { nullable: true, description: 'Null when not geocoded; 0,0 when masked.' }) geo: GeoPoint | null;
  @Field(() => Boolean, { nullable: true }) showMap: boolean | null;
  @Field(() => Boolean, { nullable: true }) showMapLink: boolean | null;
  @Field() url: string;
  @Field(() => String, { nullable: true }) image: string | null;
  @Field(() => Int, { nullable: true }) authorId: number | null;
}

@ObjectType('Organizer', { implements: [Node], description: 'An organizer (The Events Calendar `tribe_organizer`).' })
export class Organizer {
  @Field(() => ID) id: string;
  @Field(() => Int) databaseId: number;
  @Field() name: string;
  @Field() description: string;
  @Field() excerpt: string;
  @Field() slug: string;
  @Field(() => CalendarPostStatusEnum) status: CalendarPostStatus;
  @Field() phone: string;
  @Field() website: string;
  @Field() email: string;
  @Field() url: string;
  @Field(() => String, { nullable: true }) image: string | null;
  @Field(() => Int, { nullable: true }) authorId: number | null;
}

@ObjectType('EventCategory', { implements: [Node], description: 'An event category (taxonomy `tribe_events_cat`, a tree).' })
export class EventCategory {
  @Field(() => ID) id: string;
  @Field(() => Int) databaseId: number;
  @Field() name: string;
  @Field() slug: string;
  @Field() description: string;
  @Field(() => Int, { description: "Published events in this category: a stored total, updated by every write that changes an event's categories or status." }) count: number;
}

@ObjectType('EventTag', { implements: [Node], description: 'An event tag (taxonomy `post_tag`).' })
export class EventTag {
  @Field(() => ID) id: string;
  @Field(() => Int) databaseId: number;
  @Field() name: string;
  @Field() slug: string;
  @Field() description: string;
  @Field(() => Int, { description: "Published events with this tag: a stored total, updated by every write that changes an event's tags or status." }) count: number;
}

// ------------------------------------------------------------------ list arguments

/** Offset pagination over the services' page/perPage: opaque cursors encode the offset. */
@ArgsType()
export class CalendarPageArgs {
  @Field(() => Int, { nullable: true, description: 'Returns the first _n_ elements (default 10, at most 50).' })
  @IsOptional()
  @Min(0)
  @Max(50)
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Returns the elements that come after the specified cursor.' })
  @IsOptional()
  @MaxLength(500)
  after?: string | null;

  @Field(() => CalendarLanguageEnum, { nullable: true, description: 'Read in this language (falls back to the original).' })
  @IsOptional()
  language?: CalendarLanguage | null;
}

@InputType('EventsGeoWhere', { description: 'Events at geocoded venues within `radiusKm` of a point.' })
export class EventsGeoWhere {
  @Field(() => Float) @Min(-90) @Max(90) lat: number;
  @Field(() => Float) @Min(-180) @Max(180) lng: number;
  @Field(() => Float, { nullable: true, description: 'Default 25 km.' }) @IsOptional() @Min(0) @Max(20_100) radiusKm?: number | null;
}

const DATE_MAX = 64;

export enum EventsOrderFieldEnum {
  START_DATE = 'startDate',
  END_DATE = 'endDate',
  DATE = 'date',
  TITLE = 'title',
}
registerEnumType(EventsOrderFieldEnum, {
  name: 'EventsOrderField',
  description: 'What events can be ordered by.',
  valuesConfig: {
    START_DATE: { description: 'Start (wall clock in the event timezone), as GET /events lists them.' },
    END_DATE: { description: 'End (wall clock in the event timezone).' },
    DATE: { description: 'Publication date.' },
    TITLE: { description: 'Title (original language).' },
  },
});

export enum OrderDirectionEnum {
  ASC = 'asc',
  DESC = 'desc',
}
registerEnumType(OrderDirectionEnum, { name: 'CalendarOrderDirection', description: 'Ascending or descending.' });

@InputType('EventsOrder', { description: 'The order of `events` (default: START_DATE ASC, as GET /events).' })
export class EventsOrder {
  @Field(() => EventsOrderFieldEnum)
  field: EventsOrderFieldEnum;

  @Field(() => OrderDirectionEnum, { defaultValue: OrderDirectionEnum.ASC })
  direction: OrderDirectionEnum;
}

@InputType('EventsWhere', {
  description:
    'Filters of `events`, with GET /events semantics: without date filters the window is today … +24 months; ' +
    'startDate = starts on/after, endDate = ends on/before (whole days unless strictDates); the four starts*/ends* comparisons drop the default bounds.',
})
export class EventsWhere {
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(DATE_MAX) startDate?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(DATE_MAX) endDate?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(DATE_MAX) startsAfter?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(DATE_MAX) startsBefore?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(DATE_MAX) endsAfter?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(DATE_MAX) endsBefore?: string | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() strictDates?: boolean | null;
  @Field(() => String, { nullable: true, description: 'Words ANDed over title, excerpt and description.' }) @IsOptional() @MaxLength(500) search?: string | null;
  @Field(() => [String], { nullable: true, description: 'Category ids or slugs (any; child categories included).' })
  @IsOptional()
  @ArrayMaxSize(100)
  @MaxLength(200, { each: true })
  categories?: string[] | null;
  @Field(() => [String], { nullable: true, description: 'Tag ids or slugs (any).' })
  @IsOptional()
  @ArrayMaxSize(100)
  @MaxLength(200, { each: true })
  tags?: string[] | null;
  @Field(() => [Int], { nullable: true, description: 'Venue database ids (any).' }) @IsOptional() @ArrayMaxSize(100) @Min(1, { each: true }) venues?: number[] | null;
  @Field(() => [Int], { nullable: true, description: 'Organizer database ids (any).' }) @IsOptional() @ArrayMaxSize(100) @Min(1, { each: true }) organizers?: number[] | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() featured?: boolean | null;
  @Field(() => [CalendarPostStatusEnum], { nullable: true, description: 'Anonymous viewers may only ask PUBLISH.' })
  @IsOptional()
  @ArrayMaxSize(6)
  status?: CalendarPostStatus[] | null;
  @Field(() => EventsGeoWhere, { nullable: true }) @IsOptional() @ValidateNested() geo?: EventsGeoWhere | null;
}

@InputType('LinkedPostsWhere', { description: 'Filters of `venues` and `organizers`.' })
export class LinkedPostsWhere {
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(500) search?: string | null;
  @Field(() => Int, { nullable: true, description: 'Only those linked to this event (database id).' }) @IsOptional() @Min(1) event?: number | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() hasEvents?: boolean | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() onlyWithUpcoming?: boolean | null;
  @Field(() => [CalendarPostStatusEnum], { nullable: true }) @IsOptional() @ArrayMaxSize(6) status?: CalendarPostStatus[] | null;
}

@InputType('EventTermsWhere', { description: 'Filters of `eventCategories` and `eventTags`.' })
export class EventTermsWhere {
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(500) search?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Default false here: every term, used or not.' }) @IsOptional() hideEmpty?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'Categories only: direct children of this category (0 = top level).' })
  @IsOptional()
  @Min(0)
  parent?: number | null;
  @Field(() => Int, { nullable: true, description: 'The terms of this event (database id).' }) @IsOptional() @Min(1) event?: number | null;
  @Field(() => [String], { nullable: true }) @IsOptional() @ArrayMaxSize(100) @MaxLength(200, { each: true }) slugs?: string[] | null;
}

// ------------------------------------------------------------------ mutation inputs

const TEXT = 65_535;

@InputType('EventInput', { description: 'Fields of an event write. createEvent needs title, startDate and endDate.' })
export class EventInput {
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(TEXT) title?: string | null;
  @Field(() => String, { nullable: true, description: 'Local wall clock or any date the REST API accepts.' }) @IsOptional() @MaxLength(DATE_MAX) startDate?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(DATE_MAX) endDate?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(TEXT) description?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(TEXT) excerpt?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(200) slug?: string | null;
  @Field(() => CalendarPostStatusEnum, { nullable: true }) @IsOptional() status?: CalendarPostStatus | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(64) timezone?: string | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() allDay?: boolean | null;
  @Field(() => String, { nullable: true, description: 'Featured image URL; "" or null removes it.' }) @IsOptional() @MaxLength(2048) image?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(255) cost?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(2048) website?: string | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() showMap?: boolean | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() showMapLink?: boolean | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() hideFromListings?: boolean | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() sticky?: boolean | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() featured?: boolean | null;
  @Field(() => [String], { nullable: true, description: 'Category ids, slugs or names (new names are created); [] clears.' })
  @IsOptional()
  @ArrayMaxSize(100)
  @MaxLength(200, { each: true })
  categories?: string[] | null;
  @Field(() => [String], { nullable: true, description: 'Tag ids, slugs or names (new names are created); [] clears.' })
  @IsOptional()
  @ArrayMaxSize(100)
  @MaxLength(200, { each: true })
  tags?: string[] | null;
  @Field(() => [Int], { nullable: true, description: 'Venue database ids; [] clears.' }) @IsOptional() @ArrayMaxSize(20) venues?: number[] | null;
  @Field(() => [Int], { nullable: true, description: 'Organizer database ids; [] clears.' }) @IsOptional() @ArrayMaxSize(20) organizers?: number[] | null;
  @Field(() => String, { nullable: true, description: 'Post password; "" removes it.' }) @IsOptional() @MaxLength(255) password?: string | null;
  @Field(() => Int, { nullable: true, description: 'Write as another author (needs the right to edit others\' posts).' }) @IsOptional() @Min(1) authorId?: number | null;
}

@InputType('VenueInput', { description: 'Fields of a venue write. createVenue needs name.' })
export class VenueInput {
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(TEXT) name?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(TEXT) description?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(TEXT) excerpt?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(200) slug?: string | null;
  @Field(() => CalendarPostStatusEnum, { nullable: true }) @IsOptional() status?: CalendarPostStatus | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(2048) image?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(255) address?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(255) city?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(255) country?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(255) province?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(255) state?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(255) stateProvince?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(64) zip?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(64) phone?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(2048) website?: string | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() showMap?: boolean | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() showMapLink?: boolean | null;
  @Field(() => Float, { nullable: true, description: 'Latitude; null removes the coordinates.' }) @IsOptional() @Min(-90) @Max(90) lat?: number | null;
  @Field(() => Float, { nullable: true, description: 'Longitude; null removes the coordinates.' }) @IsOptional() @Min(-180) @Max(180) lng?: number | null;
}

@InputType('OrganizerInput', { description: 'Fields of an organizer write. createOrganizer needs name.' })
export class OrganizerInput {
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(TEXT) name?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(TEXT) description?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(TEXT) excerpt?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(200) slug?: string | null;
  @Field(() => CalendarPostStatusEnum, { nullable: true }) @IsOptional() status?: CalendarPostStatus | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(2048) image?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(64) phone?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(2048) website?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(255) email?: string | null;
}

@InputType('EventTermInput', { description: 'Fields of a category or tag write. Creating needs name.' })
export class EventTermInput {
  @Field(() => String, { nullable: true }) @IsOptional() @MinLength(1) @MaxLength(200) name?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(TEXT) description?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(200) slug?: string | null;
  @Field(() => Int, { nullable: true, description: 'Categories only: the parent category (0 = top level).' }) @IsOptional() @Min(0) parent?: number | null;
}

@InputType('CalendarTranslationInput', { description: 'Content of one language: the title (a venue\'s, organizer\'s or term\'s name), description, excerpt, slug.' })
export class CalendarTranslationInput {
  @Field(() => String, { nullable: true, description: 'Title of an event; name of a venue, organizer or term.' }) @IsOptional() @MaxLength(TEXT) title?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(TEXT) description?: string | null;
  @Field(() => String, { nullable: true, description: 'Not for terms.' }) @IsOptional() @MaxLength(TEXT) excerpt?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(200) slug?: string | null;
}
