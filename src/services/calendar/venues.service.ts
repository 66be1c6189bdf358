/**
 * Calendar venues (The Events Calendar's /venues): the shared linked-post rules of ./linked-posts.ts with the
 * venue's own fields (address, city, country, province, state, stateprovince, zip, phone, website, show_map,
 * show_map_link, coordinates). A venue is geocoded when both coordinates are set.
 */
import { CalendarVenueEntity } from '../../../entities/calendar';
import {
  checkBoolean,
  checkNumberInRange,
  checkString,
  checkUrlOrEmpty,
  LinkedPostCommonInput,
  LinkedPostService,
} from './linked-posts';
import { CALENDAR_CODES } from './error-codes';

export interface CalendarVenueInput extends LinkedPostCommonInput {
  address?: string;
  city?: string;
  country?: string;
  province?: string;
  state?: string;
  stateprovince?: string;
  zip?: string;
  phone?: string;
  website?: string;
  showMap?: boolean;
  showMapLink?: boolean;
  /** Latitude, -90..90; null removes it. */
  geoLat?: number | null;
  /** Longitude, -180..180; null removes it. */
  geoLng?: number | null;
}

const TEXT_FIELDS = [
  ['address', 255],
  ['city', 255],
  ['country', 255],
  ['province', 255],
  ['state', 255],
  ['stateprovince', 255],
  ['zip', 64],
  ['phone', 64],
] as const;

export class CalendarVenueService extends LinkedPostService<CalendarVenueEntity, CalendarVenueInput> {
  constructor() {
    super({
      kind: 'venue',
      entity: CalendarVenueEntity,
      linkTable: 'calendar_event_venues',
      linkColumn: 'venue_id',
      codes: {
        archivePageNotFound: CALENDAR_CODES.VENUE_ARCHIVE_PAGE_NOT_FOUND,
        notAccessible: CALENDAR_CODES.VENUE_NOT_ACCESSIBLE,
        isInTrash: CALENDAR_CODES.VENUE_IS_IN_TRASH,
        couldNotCreate: CALENDAR_CODES.COULD_NOT_CREATE_VENUE,
      },
      searchColumns: ['address', 'city', 'country', 'province', 'state', 'stateprovince', 'zip', 'phone', 'website'],
      applyFields(row, input) {
        for (const [field, max] of TEXT_FIELDS) {
          if (input[field] !== undefined) row[field] = checkString(field, input[field], max).trim();
        }
        if (input.website !== undefined) row.website = checkUrlOrEmpty('website', input.website);
        if (input.showMap !== undefined) row.showMap = checkBoolean('showMap', input.showMap);
        if (input.showMapLink !== undefined) row.showMapLink = checkBoolean('showMapLink', input.showMapLink);
        if (input.geoLat !== undefined) row.geoLat = input.geoLat === null ? null : checkNumberInRange('geoLat', input.geoLat, -90, 90);
        if (input.geoLng !== undefined) row.geoLng = input.geoLng === null ? null : checkNumberInRange('geoLng', input.geoLng, -180, 180);
        // Creating: columns the input leaves out get their defaults (the entity's).
        row.address ??= '';
        row.city ??= '';
        row.country ??= '';
        row.province ??= '';
        row.state ??= '';
        row.stateprovince ??= '';
        row.zip ??= '';
        row.phone ??= '';
        row.website ??= '';
        row.showMap ??= true;
        row.showMapLink ??= true;
        row.geoLat ??= null;
        row.geoLng ??= null;
      },
      duplicateWhere(input) {
        return {
          sql: 'LOWER(p.title) = LOWER(:dupName) AND LOWER(p.address) = LOWER(:dupAddress)',
          params: { dupName: input.name, dupAddress: typeof input.address === 'string' ? input.address.trim() : '' },
        };
      },
      loader: (ctx) => ctx.loaders.calendarVenueById,
    });
  }
}
