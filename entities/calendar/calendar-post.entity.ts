import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const CALENDAR_POST_KINDS = ['event', 'venue', 'organizer'] as const;
export type CalendarPostKind = (typeof CALENDAR_POST_KINDS)[number];

/** WordPress post statuses the calendar knows (`trash` included: DELETE moves a post there). */
export const CALENDAR_POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
export type CalendarPostStatus = (typeof CALENDAR_POST_STATUSES)[number];

/**
 * One id space for events, venues and organizers, as WordPress' posts table gives them: an id names at most one
 * post of one kind, so `/events/<a venue's id>` is "not an event" (400) rather than "no such id" (404), and
 * `include`/`post_parent`/`event` filters can tell the two apart. Each kind's own table uses this id as its key.
 */
@Entity('calendar_posts')
export class CalendarPostEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('IDX_calendar_posts_kind')
  @Column({ type: 'varchar', length: 16 })
  kind: CalendarPostKind;
}
