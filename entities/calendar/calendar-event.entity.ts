import { Column, Entity, Index } from 'typeorm';
import { CalendarPostColumns } from './calendar-post-columns';

/**
 * One event. Its start and end are stored twice: as wall-clock `YYYY-MM-DD HH:MM:SS` in the event's own timezone
 * (what lists filter and sort on, as The Events Calendar does in its default timezone mode) and as UTC instants
 * (feeds, json_ld, GraphQL DateTime). Venues, organizers and terms are linked through their link tables.
 */
@Entity('calendar_events')
@Index('UQ_calendar_events_slug', ['slug'], { unique: true })
@Index('IDX_calendar_events_status_start', ['status', 'startLocal', 'id'])
@Index('IDX_calendar_events_start', ['startLocal', 'id'])
// Covers a date window's count (status, start range, end bound, listing flag) without reading the rows.
@Index('IDX_calendar_events_window', ['status', 'startLocal', 'endLocal', 'hideFromListings'])
@Index('IDX_calendar_events_end', ['endLocal'])
@Index('IDX_calendar_events_featured', ['featured', 'startLocal'])
@Index('IDX_calendar_events_parent', ['postParentId'])
@Index('IDX_calendar_events_author', ['authorId'])
export class CalendarEventEntity extends CalendarPostColumns {
  @Column({ name: 'start_local', type: 'varchar', length: 19 })
  startLocal: string;

  @Column({ name: 'end_local', type: 'varchar', length: 19 })
  endLocal: string;

  @Column({ name: 'start_utc', type: Date })
  startUtc: Date;

  @Column({ name: 'end_utc', type: Date })
  endUtc: Date;

  /** IANA name or `UTC+2`-style offset as given; '' = the site's. */
  @Column({ type: 'varchar', length: 64, default: '' })
  timezone: string;

  @Column({ name: 'all_day', type: 'boolean', default: false })
  allDay: boolean;

  /** The cost as entered (`$10 - $20`, `Free`, `''`). */
  @Column({ type: 'varchar', length: 255, default: '' })
  cost: string;

  /** Parsed from `cost`: numeric strings, ascending. */
  @Column({ name: 'cost_values', type: 'simple-json', nullable: true })
  costValues: string[] | null;

  @Column({ name: 'currency_symbol', type: 'varchar', length: 16, default: '' })
  currencySymbol: string;

  @Column({ name: 'currency_code', type: 'varchar', length: 8, default: '' })
  currencyCode: string;

  /** 'prefix' | 'suffix' | ''. */
  @Column({ name: 'currency_position', type: 'varchar', length: 8, default: '' })
  currencyPosition: string;

  /** The event's website; null = none (the permalink stands in on the wire). */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  website: string | null;

  @Column({ name: 'show_map', type: 'boolean', default: true })
  showMap: boolean;

  @Column({ name: 'show_map_link', type: 'boolean', default: true })
  showMapLink: boolean;

  /** Never listed by /events (The Events Calendar's _EventHideFromUpcoming). */
  @Column({ name: 'hide_from_listings', type: 'boolean', default: false })
  hideFromListings: boolean;

  @Column({ type: 'boolean', default: false })
  sticky: boolean;

  @Column({ type: 'boolean', default: false })
  featured: boolean;

  @Column({ name: 'post_parent_id', type: 'integer', nullable: true })
  postParentId: number | null;

  /** Ids of the records this one was imported from (global_id_lineage after the event's own). */
  @Column({ name: 'origin_ids', type: 'simple-json', nullable: true })
  originIds: string[] | null;
}
