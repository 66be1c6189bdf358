/** Bounds shared by the calendar's list filters (event lists and the term lookups they make). */

/** The most values one list filter (include, venue, organizer, categories, tags) may name. */
export const MAX_FILTER_VALUES = 500;
