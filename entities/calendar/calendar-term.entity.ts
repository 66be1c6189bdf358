import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const CALENDAR_TAXONOMIES = ['category', 'tag'] as const;
export type CalendarTaxonomy = (typeof CALENDAR_TAXONOMIES)[number];

/**
 * A term of one taxonomy: an event category (a tree: `parentId`) or a tag. One id space for both, as WordPress'
 * terms table has it. Names and slugs are unique per taxonomy.
 */
@Entity('calendar_terms')
@Index('UQ_calendar_terms_taxonomy_slug', ['taxonomy', 'slug'], { unique: true })
@Index('IDX_calendar_terms_taxonomy_name', ['taxonomy', 'name'])
@Index('IDX_calendar_terms_parent', ['parentId'])
export class CalendarTermEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 16 })
  taxonomy: CalendarTaxonomy;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 200 })
  slug: string;

  @Column({ type: 'text', default: '' })
  description: string;

  /** Parent category; null = top level (always null for tags). */
  @Column({ name: 'parent_id', type: 'integer', nullable: true })
  parentId: number | null;

  @Column({ name: 'term_group', type: 'integer', default: 0 })
  termGroup: number;

  /**
   * Published events linked to the term (WordPress' term_taxonomy.count). Kept by every write that changes an
   * event's links or status, in the same transaction (src/services/calendar/term-counts.ts).
   */
  @Column({ type: 'integer', default: 0 })
  count: number;
}
