/**
 * WordPress text rules the calendar's REST answers show (written from WordPress' documented behaviour, not its code):
 *  - `wptexturize` (subset): curly quotes/apostrophes, en/em dashes, ellipsis, `&` → `&#038;`, outside tags and
 *    outside <pre>/<code>/<kbd>/<style>/<script>/<tt>;
 *  - `wpautop`: blank-line separated paragraphs → `<p>…</p>`, single newlines → `<br />`, block elements unwrapped;
 *  - `renderTitle` / `renderContent`: what the_title / the_content give (texturized; + paragraphs), trimmed;
 *  - `sanitizeTitle` (WordPress' sanitize_title for slugs) and `uniqueSlug` (`-2`, `-3` … suffixes);
 *  - `escHtml`: esc_html for attribute-like fields such as `website` (no double encoding of entities).
 */
import { ConflictError } from '../../errors/app-error';

// ---------------------------------------------------------------------------------------------------------------
// wptexturize
// ---------------------------------------------------------------------------------------------------------------

const NO_TEXTURIZE = new Set(['pre', 'code', 'kbd', 'style', 'script', 'tt']);
const COCKNEY = ["'tain't", "'twere", "'twas", "'tis", "'twill", "'til", "'bout", "'nuff", "'round", "'cause", "'em"];

const SPACE = '\\s|&nbsp;|&#160;';
/** Characters a quote opens after: the start, brackets, a dash, `<` (escaped), or a space. */
const OPEN_AFTER = `(?<=^|[([{"\\-]|&lt;|${SPACE})`;
const OPEN_AFTER_DOUBLE = `(?<=^|[([{\\-]|&lt;|${SPACE})`;
/** What may follow a closing quote. */
const CLOSE_BEFORE = `(?=$|[.,:;!?)}\\-\\]]|&gt;|${SPACE})`;

const DYNAMIC: Array<[RegExp, string]> = [
  // '99' and '99" : a quoted two-digit number
  [new RegExp(`'(\\d\\d)'${CLOSE_BEFORE}`, 'g'), '&#8217;$1&#8217;'],
  [new RegExp(`'(\\d\\d)"${CLOSE_BEFORE}`, 'g'), '&#8217;$1&#8221;'],
  // '99, '99s: an abbreviated year (not '9, '99%, '999, '99.0)
  [/'(?=\d\d(?:$|(?![%\d]|[.,]\d)))/g, '&#8217;'],
  // '0.42': a quoted number
  [new RegExp(`(?<=^|${SPACE})'(\\d[.,\\d]*)'`, 'g'), '&#8216;$1&#8217;'],
  // an opening single quote
  [new RegExp(`${OPEN_AFTER}'`, 'g'), '&#8216;'],
  // an apostrophe inside a word
  [new RegExp(`(?<!${SPACE})'(?!$|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SPACE})`, 'g'), '&#8217;'],
  // an opening double quote
  [new RegExp(`${OPEN_AFTER_DOUBLE}"(?!${SPACE})`, 'g'), '&#8220;'],
  // 9x9 → ×
  [/\b(\d[\d.,]*)x(-?\d[\d.,]*)\b/g, '$1&#215;$2'],
  // whatever single/double quote is left closes
  [/'/g, '&#8217;'],
  [/"/g, '&#8221;'],
];

function texturizeText(text: string): string {
  let t = text;
  // Lone ampersands (not starting an entity) become &#038;, as WordPress does.
  t = t.replace(/&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi, '&#038;');
  for (const word of COCKNEY) t = t.split(word).join(word.replace(/'/g, '&#8217;'));
  t = t
    .split('---').join('&#8212;')
    .split(' -- ').join(' &#8212; ')
    .split('--').join('&#8211;')
    .split(' - ').join(' &#8211; ')
    .split('xn&#8211;').join('xn--')
    .split('...').join('&#8230;')
    .split('``').join('&#8220;')
    .split("''").join('&#8221;')
    .split(' (tm)').join(' &#8482;');
  for (const [re, replacement] of DYNAMIC) t = t.replace(re, replacement);
  return t;
}

/** Tags, comments and the text between them. */
const TOKENS = /(<!--[\s\S]*?-->|<[^>]*>)/;

/** WordPress' typographic pass on HTML: only text outside tags and outside code-like elements changes. */
export function wptexturize(html: string): string {
  if (!html) return '';
  const parts = html.split(TOKENS);
  const skip: string[] = [];
  return parts
    .map((part, i) => {
      if (i % 2 === 1) {
        const m = /^<(\/?)([a-z][a-z0-9]*)/i.exec(part);
        if (m && NO_TEXTURIZE.has(m[2].toLowerCase())) {
          if (m[1] === '/') {
            const at = skip.lastIndexOf(m[2].toLowerCase());
            if (at >= 0) skip.splice(at, 1);
          } else if (!part.endsWith('/>')) skip.push(m[2].toLowerCase());
        }
        return part;
      }
      return skip.length ? part : texturizeText(part);
    })
    .join('');
}

// ---------------------------------------------------------------------------------------------------------------
// wpautop
// ---------------------------------------------------------------------------------------------------------------

const BLOCK =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|math|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|nav|figure|figcaption|details|menu|summary|footer|main|iframe|video|audio|source|track|canvas|svg|script|noscript|object|embed|option|select|textarea)';

/** WordPress' automatic paragraphs: `\n\n` separates paragraphs, `\n` inside one becomes `<br />`. */
export function wpautop(text: string): string {
  if (!text || !text.trim()) return '';
  // Keep <pre>, <script>, <style>, <textarea> bodies exactly as written.
  const kept: string[] = [];
  let t = text.replace(/\r\n?/g, '\n').replace(/<(pre|script|style|textarea)\b[\s\S]*?<\/\1>/gi, (m) => {
    kept.push(m);
    return `<pre wp-pre-tag-${kept.length - 1}></pre>`;
  });
  t = `${t}\n`;
  t = t.replace(/<br\s*\/?>\s*<br\s*\/?>/gi, '\n\n');
  // Space block tags out so they end up as their own "paragraphs".
  t = t.replace(new RegExp(`(<${BLOCK}[\\s/>])`, 'gi'), '\n\n$1');
  t = t.replace(new RegExp(`(</${BLOCK}>)`, 'gi'), '$1\n\n');
  t = t.replace(/\n\n+/g, '\n\n');

  const blockEnd = new RegExp(`</?${BLOCK}[^>]*>\\s*$`, 'i');
  const blockStart = new RegExp(`^\\s*</?${BLOCK}[\\s/>]`, 'i');
  const paragraphs = t.split(/\n\s*\n/).map((p) => p.replace(/^\n+|\n+$/g, '')).filter((p) => p.trim() !== '');
  let out = paragraphs
    .map((p) => {
      // Single newlines are line breaks, except next to a block tag.
      const lines = p.split('\n');
      let body = lines[0];
      for (let i = 1; i < lines.length; i++) {
        body += blockEnd.test(lines[i - 1]) || blockStart.test(lines[i]) ? '\n' : '<br />\n';
        body += lines[i];
      }
      return `<p>${body}</p>\n`;
    })
    .join('');
  // Unwrap block elements and drop empty paragraphs.
  out = out.replace(new RegExp(`<p>\\s*(</?${BLOCK}[^>]*>)`, 'gi'), '$1');
  out = out.replace(new RegExp(`(</?${BLOCK}[^>]*>)\\s*</p>`, 'gi'), '$1');
  out = out.replace(/<p>\s*<\/p>\n?/g, '');
  out = out.replace(/<pre wp-pre-tag-(\d+)><\/pre>/g, (_m, i: string) => kept[Number(i)]);
  return out;
}

/**
 * A bounded memo of a pure text rendering: the same titles and descriptions are rendered on every page that shows
 * them. Cleared whole when full; long texts are not kept.
 */
function memo(render: (s: string) => string, max = 4096, longest = 20_000): (s: string) => string {
  const done = new Map<string, string>();
  return (s) => {
    const hit = done.get(s);
    if (hit !== undefined) return hit;
    const out = render(s);
    if (s.length <= longest) {
      if (done.size >= max) done.clear();
      done.set(s, out);
    }
    return out;
  };
}

const titleMemo = memo((t) => wptexturize(t).trim());
const contentMemo = memo((c) => wpautop(wptexturize(c)).trim());

/** The title as `the_title` shows it in the API: texturized, trimmed. */
export function renderTitle(title: string): string {
  return titleMemo(title ?? '');
}

/** A description/excerpt as `the_content` shows it: texturized, paragraphs, trimmed. */
export function renderContent(content: string): string {
  return contentMemo(content ?? '');
}

// ---------------------------------------------------------------------------------------------------------------
// Slugs
// ---------------------------------------------------------------------------------------------------------------

const SPECIAL_LETTERS: Record<string, string> = {
  ß: 'ss', ẞ: 'SS', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', đ: 'd', Đ: 'D', ð: 'd', Ð: 'D', þ: 'th', Þ: 'TH',
  ł: 'l', Ł: 'L', ħ: 'h', Ħ: 'H', ı: 'i', ŀ: 'l', Ŀ: 'L', ŋ: 'n', Ŋ: 'N', ĸ: 'k', ſ: 's', ŧ: 't', Ŧ: 'T',
};

/** WordPress' remove_accents: Latin letters lose their diacritics (`é` → `e`, `ß` → `ss`, `ø` → `o`). */
export function removeAccents(text: string): string {
  return text
    .replace(/[ßẞæÆøØœŒđĐðÐþÞłŁħĦıŀĿŋŊĸſŧŦ]/g, (c) => SPECIAL_LETTERS[c] ?? c)
    .normalize('NFD')
    .replace(/(?<=[A-Za-z])[\u0300-\u036f]+/g, '')
    .normalize('NFC');
}

/**
 * WordPress' sanitize_title for a slug: tags stripped, accents removed, lowercase, entities and punctuation
 * dropped, `.` and spaces → `-`, dashes collapsed and trimmed; other non-ASCII letters stay, percent-encoded
 * (`中文` → `%e4%b8%ad%e6%96%87`), as WordPress stores them.
 */
export function sanitizeTitle(text: string): string {
  let t = removeAccents(String(text ?? '').replace(/<[^>]*>/g, ''));
  t = t.replace(/%(?![a-f0-9]{2})/gi, '');
  t = t.toLowerCase();
  t = t.replace(/&[^\s;]+;/g, '');
  // nbsp, en/em dashes and other dash/space-like characters → '-', × → x; typographic quotes and marks vanish
  t = t.replace(/[\u00a0\u2013\u2014\u2012\u2015\u2010\u2011]/g, '-').replace(/×/g, 'x');
  t = t.replace(/[\u00a1\u00bf\u00ab\u00bb\u2039\u203a\u2018\u2019\u201c\u201d\u201a\u201b\u201e\u201f\u2022\u00a9\u00ae\u00b0\u2026\u2122\u00b4\u02dc\u00b8\u00a8]/g, '');
  t = t.replace(/\./g, '-');
  // Non-ASCII letters and digits are kept, percent-encoded; other characters go.
  t = Array.from(t)
    .map((c) => {
      if (/[a-z0-9 _\-%]/.test(c) || /\s/.test(c)) return c;
      if (/[\p{L}\p{N}\p{M}]/u.test(c)) return encodeURIComponent(c).toLowerCase();
      return '';
    })
    .join('');
  t = t.replace(/\s+/g, '-').replace(/-+/g, '-').replace(/^-+|-+$/g, '');
  return truncateSlug(t, 200);
}

/** Cut a slug to `max` bytes without splitting a percent-encoded octet. */
function truncateSlug(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  let cut = slug.slice(0, max);
  const pct = cut.lastIndexOf('%');
  if (pct >= 0 && pct > max - 3) cut = cut.slice(0, pct);
  return cut.replace(/-+$/, '');
}

/**
 * The first free slug among `base`, `base-2`, `base-3` … (WordPress' wp_unique_post_slug), each at most
 * 200 characters. `taken` tells whether a slug is in use (sync or async).
 */
export async function uniqueSlug(base: string, taken: (slug: string) => boolean | Promise<boolean>, maxTries = 10_000): Promise<string> {
  if (!(await taken(base))) return base;
  for (let n = 2; n <= maxTries + 1; n++) {
    const suffix = `-${n}`;
    const candidate = `${truncateSlug(base, 200 - suffix.length)}${suffix}`;
    if (!(await taken(candidate))) return candidate;
  }
  throw new ConflictError('No free slug could be found for this title.', { domainCode: 'SLUG_EXHAUSTED' });
}

// ---------------------------------------------------------------------------------------------------------------
// Escaping
// ---------------------------------------------------------------------------------------------------------------

/** esc_html: `&` (unless it starts an entity), `<`, `>`, `"`, `'` escaped; existing entities are not doubled. */
export function escHtml(text: string | null | undefined): string {
  return String(text ?? '')
    .replace(/&(?!(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}
