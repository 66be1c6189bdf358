/**
 * Content languages: the calendar's content is translatable into these, and a request may ask for one
 * (the WordPress family's `i18n_language` parameter). `undefined` everywhere means "the original content
 * language" (nothing chosen).
 */
export const LANGUAGES = ['da', 'en', 'fr', 'de'] as const;

export type Language = (typeof LANGUAGES)[number];

export function isLanguage(v: unknown): v is Language {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
}
