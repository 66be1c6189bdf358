/**
 * WordPress' search (`?search=`): whitespace-separated terms ANDed, "quoted phrases" kept together, a leading `-`
 * excludes. One parser for every calendar list. At most MAX_SEARCH_TERMS terms are used (WordPress caps them too:
 * a long search string must not become a huge SQL expression).
 */
export const MAX_SEARCH_TERMS = 32;
/** Longest search string looked at (characters); the rest is ignored. */
export const MAX_SEARCH_CHARS = 1000;

export interface SearchTerm {
  text: string;
  exclude: boolean;
}

export function searchTerms(search: string): SearchTerm[] {
  const out: SearchTerm[] = [];
  const s = search.slice(0, MAX_SEARCH_CHARS);
  const re = /(-?)"([^"]*)"|(\S+)/g;
  for (let m = re.exec(s); m && out.length < MAX_SEARCH_TERMS; m = re.exec(s)) {
    if (m[3] !== undefined) {
      const exclude = m[3].length > 1 && m[3].startsWith('-');
      const text = exclude ? m[3].slice(1) : m[3];
      if (text !== '') out.push({ text, exclude });
    } else if (m[2].trim() !== '') out.push({ text: m[2], exclude: m[1] === '-' });
  }
  return out;
}

/** `%text%` for `LIKE … ESCAPE '\'`, lower-cased (compare with LOWER(column)). */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
