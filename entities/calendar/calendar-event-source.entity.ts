import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { CalendarEventEntity } from './calendar-event.entity';

/**
 * Where an imported event came from: the iCalendar UID it was imported under (RFC 5545 §3.8.4.7: globally unique
 * and stable across updates of the event). Importing the same UID again updates that event instead of adding a
 * second one, so an import can be repeated (a feed refreshed, a job's step run again after a crash).
 */
@Entity('calendar_event_sources')
export class CalendarEventSourceEntity {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  uid: string;

  @Index('UQ_calendar_event_sources_event', { unique: true })
  @Column({ name: 'event_id', type: 'integer' })
  eventId: number;

  @ManyToOne(() => CalendarEventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: CalendarEventEntity;
}
