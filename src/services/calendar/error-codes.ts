/**
 * Domain codes of calendar errors (the `domainCode` of the AppErrors calendar services throw). They are The Events
 * Calendar's own error codes (reference §5), so the WordPress family answers them as they are, with the status of
 * the error's category (NotFound 404, Forbidden 403, Gone 410, Validation 400); GraphQL callers read them as
 * `extensions.domainCode`. Messages are the plugin's English wording; the WordPress family translates them.
 */
import { ValidationError } from '../../errors/app-error';

export const CALENDAR_CODES = {
  EVENT_ARCHIVE_PAGE_NOT_FOUND: 'event-archive-page-not-found',
  VENUE_ARCHIVE_PAGE_NOT_FOUND: 'venue-archive-page-not-found',
  ORGANIZER_ARCHIVE_PAGE_NOT_FOUND: 'organizer-archive-page-not-found',
  EVENT_NOT_FOUND: 'rest-event-not-found',
  INVALID_EVENT_ID: 'rest-invalid-event-id',
  EVENT_NOT_ACCESSIBLE: 'event-not-accessible',
  EVENT_PASSWORD_PROTECTED: 'event-password-protected',
  EVENT_NO_LONGER_AVAILABLE: 'event-no-longer-available',
  EVENT_IS_IN_TRASH: 'event-is-in-trash',
  VENUE_NOT_ACCESSIBLE: 'venue-not-accessible',
  ORGANIZER_NOT_ACCESSIBLE: 'organizer-not-accessible',
  VENUE_IS_IN_TRASH: 'venue-is-in-trash',
  ORGANIZER_IS_IN_TRASH: 'organizer-is-in-trash',
  COULD_NOT_CREATE_VENUE: 'could-not-create-venue',
  COULD_NOT_CREATE_ORGANIZER: 'could-not-create-organizer',
  INVALID_LINKED_POST_ID: 'invalid-linked-post-id',
  /** Invalid input of one or more parameters (WordPress' own code). */
  INVALID_PARAM: 'rest_invalid_param',
  /** Required parameters absent (WordPress' own code). */
  MISSING_PARAM: 'rest_missing_callback_param',
  /** Logged in (or not) but not allowed (WordPress' own code; 401 when not logged in). */
  FORBIDDEN: 'rest_forbidden',
  /** A term with that name already exists (WordPress' own code). */
  TERM_EXISTS: 'term_exists',
  /** A post that is not the kind the route serves, or does not exist (the id argument validator's answer). */
  NOT_A_POST_OF_KIND: 'rest_invalid_param',
} as const;

export type CalendarCode = (typeof CALENDAR_CODES)[keyof typeof CALENDAR_CODES];

/** The plugin's English messages (reference §5: wording and missing periods as the plugin has them). */
export const CALENDAR_MESSAGES: Record<string, string> = {
  'event-archive-page-not-found': 'The requested event archive page does not exist',
  'venue-archive-page-not-found': 'The requested venue archive page does not exist',
  'organizer-archive-page-not-found': 'The requested organizer archive page does not exist',
  'rest-event-not-found': 'Event with ID %d does not exist.',
  'rest-invalid-event-id': 'The specified ID is not a valid event.',
  'event-not-accessible': 'The requested event is not accessible',
  'event-password-protected': 'The requested event is not accessible without a password',
  'event-no-longer-available': 'This event is no longer available',
  'event-is-in-trash': 'The event is already trashed',
  'venue-not-accessible': 'The requested venue is not accessible',
  'organizer-not-accessible': 'The requested organizer is not accessible',
  'venue-is-in-trash': 'The venue is already trashed',
  'organizer-is-in-trash': 'The organizer is already trashed',
  'could-not-create-venue': 'The venue could not be created from the provided data',
  'could-not-create-organizer': 'The organizer could not be created from the provided data',
  'invalid-linked-post-id': 'The provided linked post ID is not valid',
  rest_forbidden: 'Sorry, you are not allowed to do that.',
};

/** WordPress' per-parameter validation failure: "Invalid parameter(s): start_date" / params.start_date "Invalid parameter." */
export function invalidParameter(field: string, resource = 'Event', message = 'Invalid parameter.'): ValidationError {
  return new ValidationError(`Invalid parameter(s): {{${field}}}`, {
    // The family code on both transports (GraphQL shows it as extensions.domainCode, as it does for every other
    // calendar rest_invalid_param).
    domainCode: CALENDAR_CODES.INVALID_PARAM,
    namesFields: true,
    fieldErrors: [{ resource, field, code: 'invalid', message }],
  });
}

