import { Column, PrimaryColumn } from 'typeorm';
import type { CalendarPostStatus } from './calendar-post.entity';

/**
 * The columns every calendar post (event, venue, organizer) has, as WordPress' posts table has them. Entities
 * extend this class; each keeps its own table.
 */
export abstract class CalendarPostColumns {
  /** = calendar_posts.id (one id space for all kinds). */
  @PrimaryColumn({ type: 'integer' })
  id: number;

  /** The account that wrote it (WordPress post_author); null = none ("0" on the wire). */
  @Column({ name: 'author_id', type: 'integer', nullable: true })
  authorId: number | null;

  @Column({ type: 'varchar', length: 16, default: 'draft' })
  status: CalendarPostStatus;

  /** The status before it was trashed (restore puts it back), as WordPress' _wp_trash_meta_status. */
  @Column({ name: 'status_before_trash', type: 'varchar', length: 16, nullable: true })
  statusBeforeTrash: CalendarPostStatus | null;

  /** Title (events) or name (venues, organizers), in the original language. */
  @Column({ type: 'text', default: '' })
  title: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'text', default: '' })
  excerpt: string;

  /** Permalink slug, unique per kind (a trashed post's carries `__trashed`). */
  @Column({ type: 'varchar', length: 200 })
  slug: string;

  /** Post password; null = not protected. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  password: string | null;

  /** Publication date, site-local wall clock `YYYY-MM-DD HH:MM:SS` (WordPress post_date). */
  @Column({ name: 'date_local', type: 'varchar', length: 19 })
  dateLocal: string;

  /** Publication date in UTC; null for drafts never dated (WordPress' `0000-00-00 00:00:00`). */
  @Column({ name: 'date_utc', type: Date, nullable: true })
  dateUtc: Date | null;

  @Column({ name: 'modified_at', type: Date })
  modifiedAt: Date;

  /** Featured image: an URL (no media library here); null = none. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  image: string | null;
}
