/**
 * The events calendar in the graph (issue 8, ql-events model): one file per resolver, as the REST routes are.
 * Importing a resolver file registers its node type.
 */
import { CalendarMutationResolver } from './calendar-mutation.resolver';
import { CalendarQueryResolver } from './calendar-query.resolver';
import { EventCategoryResolver } from './event-category.resolver';
import { EventTagResolver } from './event-tag.resolver';
import { EventResolver } from './event.resolver';
import { OrganizerResolver } from './organizer.resolver';
import { VenueResolver } from './venue.resolver';

export const CALENDAR_RESOLVERS = [
  EventResolver,
  VenueResolver,
  OrganizerResolver,
  EventCategoryResolver,
  EventTagResolver,
  CalendarQueryResolver,
  CalendarMutationResolver,
] as const;
