import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const CALENDAR_LANGUAGES = ['da', 'en', 'fr', 'de'] as const;
export type CalendarLanguage = (typeof CALENDAR_LANGUAGES)[number];

/** Terms are kept per taxonomy (`category`, `tag`), so a category and a tag may share a translated slug. */
export const TRANSLATABLE_KINDS = ['event', 'venue', 'organizer', 'category', 'tag'] as const;
export type TranslatableKind = (typeof TRANSLATABLE_KINDS)[number];

/**
 * A record's content in one language: title (or name), description, excerpt, slug. Reads in a language use it and
 * fall back to the original for what it leaves null; writes in a language store here. The slug is unique per kind
 * and language.
 */
@Entity('calendar_translations')
@Index('UQ_calendar_translations_object_language', ['kind', 'objectId', 'language'], { unique: true })
@Index('UQ_calendar_translations_slug', ['kind', 'language', 'slug'], { unique: true })
export class CalendarTranslationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 16 })
  kind: TranslatableKind;

  @Column({ name: 'object_id', type: 'integer' })
  objectId: number;

  @Column({ type: 'varchar', length: 8 })
  language: CalendarLanguage;

  @Column({ type: 'text', nullable: true })
  title: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text', nullable: true })
  excerpt: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  slug: string | null;
}
