import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { CalendarEventEntity } from './calendar-event.entity';
import { CalendarOrganizerEntity } from './calendar-organizer.entity';
import { CalendarTermEntity } from './calendar-term.entity';
import { CalendarVenueEntity } from './calendar-venue.entity';

/** Event → venue (usually one; several are kept in order). */
@Entity('calendar_event_venues')
@Index('IDX_calendar_event_venues_venue', ['venueId', 'eventId'])
export class CalendarEventVenueEntity {
  @PrimaryColumn({ name: 'event_id', type: 'integer' })
  eventId: number;

  @PrimaryColumn({ name: 'venue_id', type: 'integer' })
  venueId: number;

  @ManyToOne(() => CalendarEventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: CalendarEventEntity;

  @ManyToOne(() => CalendarVenueEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'venue_id' })
  venue?: CalendarVenueEntity;

  @Column({ type: 'integer', default: 0 })
  position: number;
}

/** Event → organizers, in order. */
@Entity('calendar_event_organizers')
@Index('IDX_calendar_event_organizers_organizer', ['organizerId', 'eventId'])
export class CalendarEventOrganizerEntity {
  @PrimaryColumn({ name: 'event_id', type: 'integer' })
  eventId: number;

  @PrimaryColumn({ name: 'organizer_id', type: 'integer' })
  organizerId: number;

  @ManyToOne(() => CalendarEventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: CalendarEventEntity;

  @ManyToOne(() => CalendarOrganizerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: CalendarOrganizerEntity;

  @Column({ type: 'integer', default: 0 })
  position: number;
}

/** Event → categories and tags. */
@Entity('calendar_event_terms')
@Index('IDX_calendar_event_terms_term', ['termId', 'eventId'])
export class CalendarEventTermEntity {
  @PrimaryColumn({ name: 'event_id', type: 'integer' })
  eventId: number;

  @PrimaryColumn({ name: 'term_id', type: 'integer' })
  termId: number;

  @ManyToOne(() => CalendarEventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: CalendarEventEntity;

  @ManyToOne(() => CalendarTermEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'term_id' })
  term?: CalendarTermEntity;
}
