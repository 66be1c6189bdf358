/**
 * Calendar organizers (The Events Calendar's /organizers): the shared linked-post rules of ./linked-posts.ts with
 * the organizer's own fields (phone, website, email).
 */
import { CalendarOrganizerEntity } from '../../../entities/calendar';
import { checkEmailOrEmpty, checkString, checkUrlOrEmpty, LinkedPostCommonInput, LinkedPostService } from './linked-posts';
import { CALENDAR_CODES } from './error-codes';

export interface CalendarOrganizerInput extends LinkedPostCommonInput {
  phone?: string;
  website?: string;
  email?: string;
}

export class CalendarOrganizerService extends LinkedPostService<CalendarOrganizerEntity, CalendarOrganizerInput> {
  constructor() {
    super({
      kind: 'organizer',
      entity: CalendarOrganizerEntity,
      linkTable: 'calendar_event_organizers',
      linkColumn: 'organizer_id',
      codes: {
        archivePageNotFound: CALENDAR_CODES.ORGANIZER_ARCHIVE_PAGE_NOT_FOUND,
        notAccessible: CALENDAR_CODES.ORGANIZER_NOT_ACCESSIBLE,
        isInTrash: CALENDAR_CODES.ORGANIZER_IS_IN_TRASH,
        couldNotCreate: CALENDAR_CODES.COULD_NOT_CREATE_ORGANIZER,
      },
      searchColumns: ['phone', 'website', 'email'],
      applyFields(row, input) {
        if (input.phone !== undefined) row.phone = checkString('phone', input.phone, 64).trim();
        if (input.website !== undefined) row.website = checkUrlOrEmpty('website', input.website);
        if (input.email !== undefined) row.email = checkEmailOrEmpty('email', input.email);
        row.phone ??= '';
        row.website ??= '';
        row.email ??= '';
      },
      duplicateWhere(input) {
        return { sql: 'LOWER(p.title) = LOWER(:dupName)', params: { dupName: input.name } };
      },
      loader: (ctx) => ctx.loaders.calendarOrganizerById,
    });
  }
}
