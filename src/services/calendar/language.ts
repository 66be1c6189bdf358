/**
 * The content language of a request: `i18n_language` (REST) or `language` (GraphQL), one of da, en, fr, de.
 * Undefined = the original content (what was written without a language).
 */
import { CALENDAR_LANGUAGES, CalendarLanguage } from '../../../entities/calendar';
import type { RequestContext } from '../../context';
import { quoteInput, ValidationError } from '../../errors/app-error';

export function isCalendarLanguage(v: unknown): v is CalendarLanguage {
  return typeof v === 'string' && (CALENDAR_LANGUAGES as readonly string[]).includes(v);
}

/** The language a calendar read or write of this request uses. */
export function contentLanguage(ctx: RequestContext, explicit?: string | null): CalendarLanguage | undefined {
  if (explicit !== undefined && explicit !== null) {
    if (!isCalendarLanguage(explicit)) {
      throw new ValidationError(`{{language}} is not one of ${CALENDAR_LANGUAGES.join(', ')}; got ${quoteInput(explicit)}`, {
        domainCode: 'rest_invalid_param',
        namesFields: true,
        fieldErrors: [{ field: 'language', code: 'rest_not_in_enum', message: `{{language}} is not one of da, en, fr, and de.` }],
      });
    }
    return explicit;
  }
  return ctx.language;
}
