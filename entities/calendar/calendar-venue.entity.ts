import { Column, Entity, Index } from 'typeorm';
import { CalendarPostColumns } from './calendar-post-columns';

/** A venue (`title` is its name: `venue` on the wire). Geocoded when both coordinates are set. */
@Entity('calendar_venues')
@Index('UQ_calendar_venues_slug', ['slug'], { unique: true })
@Index('IDX_calendar_venues_status', ['status', 'dateLocal', 'id'])
@Index('IDX_calendar_venues_geo', ['geoLat', 'geoLng'])
export class CalendarVenueEntity extends CalendarPostColumns {
  @Column({ type: 'varchar', length: 255, default: '' })
  address: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  city: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  country: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  province: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  state: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  stateprovince: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  zip: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  phone: string;

  @Column({ type: 'varchar', length: 2048, default: '' })
  website: string;

  @Column({ name: 'show_map', type: 'boolean', default: true })
  showMap: boolean;

  @Column({ name: 'show_map_link', type: 'boolean', default: true })
  showMapLink: boolean;

  @Column({ name: 'geo_lat', type: 'double precision', nullable: true })
  geoLat: number | null;

  @Column({ name: 'geo_lng', type: 'double precision', nullable: true })
  geoLng: number | null;
}
