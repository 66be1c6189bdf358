/**
 * Translatable content: a record's title (or name), description, excerpt and slug per language. Reads in a language
 * take that language's translation and fall back to the original for whatever it leaves empty; writes in a language
 * store into the translation, leaving the original as it is.
 */
import type { EntityManager } from 'typeorm';
import { CalendarLanguage, CalendarTranslationEntity, TranslatableKind } from '../../../entities/calendar';
import type { RequestContext } from '../../context';
import { loadAll } from '../../loaders/loader';

export interface TranslatableContent {
  title: string;
  description: string;
  excerpt: string;
  slug: string;
}

/** `rows` as read in `language`: copies with the translated fields (the originals are never changed). */
export async function translatedRows<T extends { id: number } & TranslatableContent>(
  ctx: RequestContext,
  kind: TranslatableKind,
  rows: readonly T[],
  language: CalendarLanguage | undefined,
): Promise<T[]> {
  if (!language || rows.length === 0) return [...rows];
  const found = await loadAll(ctx.loaders.calendarTranslation, rows.map((r) => `${kind}:${language}:${r.id}`));
  return rows.map((r, i) => applyTranslation(r, found[i]));
}

export function applyTranslation<T extends TranslatableContent>(row: T, t: CalendarTranslationEntity | null | undefined): T {
  if (!t) return row;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(row)), row) as T;
  if (t.title) copy.title = t.title;
  if (t.description) copy.description = t.description;
  if (t.excerpt) copy.excerpt = t.excerpt;
  if (t.slug) copy.slug = t.slug;
  return copy;
}

/** Write `content` (the fields given) into the record's translation in `language` (creating it). */
export async function saveTranslation(
  db: EntityManager,
  kind: TranslatableKind,
  objectId: number,
  language: CalendarLanguage,
  content: Partial<TranslatableContent>,
): Promise<CalendarTranslationEntity> {
  const repo = db.getRepository(CalendarTranslationEntity);
  const existing = await repo.findOne({ where: { kind, objectId, language } });
  const row = existing ?? repo.create({ kind, objectId, language, title: null, description: null, excerpt: null, slug: null });
  if (content.title !== undefined) row.title = content.title;
  if (content.description !== undefined) row.description = content.description;
  if (content.excerpt !== undefined) row.excerpt = content.excerpt;
  if (content.slug !== undefined) row.slug = content.slug;
  return repo.save(row);
}

/** Every translation of a record (GraphQL `translations`). */
export function translationsOf(db: EntityManager, kind: TranslatableKind, objectId: number): Promise<CalendarTranslationEntity[]> {
  return db.getRepository(CalendarTranslationEntity).find({ where: { kind, objectId }, order: { language: 'ASC' } });
}

/** Remove a record's translations (a term deleted for good). */
export async function deleteTranslations(db: EntityManager, kind: TranslatableKind, objectId: number): Promise<void> {
  await db.getRepository(CalendarTranslationEntity).delete({ kind, objectId });
}
