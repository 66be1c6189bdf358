import { Column, Entity, Index } from 'typeorm';
import { CalendarPostColumns } from './calendar-post-columns';

/** An organizer (`title` is its name: `organizer` on the wire). */
@Entity('calendar_organizers')
@Index('UQ_calendar_organizers_slug', ['slug'], { unique: true })
@Index('IDX_calendar_organizers_status', ['status', 'dateLocal', 'id'])
export class CalendarOrganizerEntity extends CalendarPostColumns {
  @Column({ type: 'varchar', length: 64, default: '' })
  phone: string;

  @Column({ type: 'varchar', length: 2048, default: '' })
  website: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  email: string;
}
