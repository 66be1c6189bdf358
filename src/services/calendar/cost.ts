/**
 * Event cost, as The Events Calendar reads and shows it:
 *  - `parseCost(raw)`: the numbers in the free-text cost field (`"$10 - $20"`, `"10 €"`, `"€5,50"`, `"0"`, `"Free"`)
 *    → ascending unique numeric strings + the currency symbol written next to the first number and its position;
 *  - `formatCost(details)`: `"$23"`, `"Free"` (a cost of 0), `"$10 – $20"` (min – max, en dash), `""` when none.
 *
 * Decimal separators: with both `,` and `.` in a number the last one is the decimal separator (`1,234.50`,
 * `1.234,50`); a lone `,` followed by exactly three digits groups thousands (`1,000`), otherwise it is the decimal
 * separator (`5,50`, `5,5`); several `.` group thousands (`1.000.000`), a single `.` is decimal. A `-` or `–`
 * between numbers separates a range (costs are never negative).
 */

export type CurrencyPosition = 'prefix' | 'suffix' | '';

export interface CostDetails {
  /** Numeric strings (`.` as decimal separator), ascending, unique by value. */
  values: string[];
  currencySymbol: string;
  /** ISO 4217 code when the text names one (`USD 10`, `10 EUR`), else the site/event default, else ''. */
  currencyCode: string;
  currencyPosition: CurrencyPosition;
  /** The field as written (trimmed): shown as it is when it holds no number (`"Donation"`). */
  text: string;
}

export interface CostDefaults {
  currencySymbol?: string;
  currencyCode?: string;
  currencyPosition?: CurrencyPosition;
  /** Words meaning "no charge" (the translated "Free" label too); matched case-insensitively. */
  freeWords?: string[];
}

const CODE_SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥', DKK: 'kr.', SEK: 'kr', NOK: 'kr', CHF: 'CHF', INR: '₹', CAD: '$', AUD: '$' };

/** A number as written: digits with optional `,`/`.` groups and decimals. */
const NUMBER = /\d+(?:[.,]\d+)*/g;

function normalizeNumber(written: string): string | null {
  const lastComma = written.lastIndexOf(',');
  const lastDot = written.lastIndexOf('.');
  let intPart: string;
  let frac = '';
  if (lastComma >= 0 && lastDot >= 0) {
    const decimalAt = Math.max(lastComma, lastDot);
    intPart = written.slice(0, decimalAt).replace(/[.,]/g, '');
    frac = written.slice(decimalAt + 1);
  } else if (lastComma >= 0) {
    const groups = written.split(',');
    const thousands = groups.length > 2 || groups[1].length === 3;
    if (thousands) {
      if (groups.slice(1).some((g) => g.length !== 3)) return null;
      intPart = groups.join('');
    } else {
      intPart = groups[0];
      frac = groups[1];
    }
  } else if (lastDot >= 0) {
    const groups = written.split('.');
    if (groups.length > 2) {
      if (groups.slice(1).some((g) => g.length !== 3)) return null;
      intPart = groups.join('');
    } else {
      intPart = groups[0];
      frac = groups[1];
    }
  } else {
    intPart = written;
  }
  intPart = intPart.replace(/^0+(?=\d)/, '');
  return frac ? `${intPart}.${frac}` : intPart;
}

/** A currency word or symbol right before / after a number: `$`, `€`, `US$`, `kr.`, `USD`, `CHF`. */
const SYMBOL_BEFORE = /([^\s\d.,\-–—]+)\s*$/u;
const SYMBOL_AFTER = /^\s*([^\s\d.,\-–—]+)/u;

function classify(token: string): { symbol: string; code: string } {
  const t = token.replace(/[()[\]]/g, '');
  if (/^[A-Z]{3}$/.test(t)) return { symbol: CODE_SYMBOLS[t] ?? t, code: t };
  return { symbol: t, code: '' };
}

/** TEC's cost details from the free-text cost field. */
export function parseCost(raw: string | null | undefined, defaults: CostDefaults = {}): CostDetails {
  const text = (raw ?? '').replace(/<[^>]*>/g, '').trim();
  const free = new Set(['free', ...(defaults.freeWords ?? []).map((w) => w.toLowerCase())]);
  const values: string[] = [];
  let symbol = '';
  let code = '';
  let position: CurrencyPosition = '';

  const matches = [...text.matchAll(NUMBER)];
  for (const m of matches) {
    const v = normalizeNumber(m[0]);
    if (v !== null) values.push(v);
  }
  // The symbol written next to a number: the first number that has one decides (before it = prefix).
  for (const m of matches) {
    const before = SYMBOL_BEFORE.exec(text.slice(0, m.index));
    const after = SYMBOL_AFTER.exec(text.slice(m.index! + m[0].length));
    const candidates: Array<[string, CurrencyPosition]> = [];
    if (before) candidates.push([before[1], 'prefix']);
    if (after) candidates.push([after[1], 'suffix']);
    const pick = candidates.find(([token]) => !free.has(token.toLowerCase()) && !/^\p{L}{4,}$/u.test(token));
    if (pick) {
      const c = classify(pick[0]);
      symbol = c.symbol;
      code = c.code;
      position = pick[1];
      break;
    }
  }
  // "Free" alone, or next to prices ("Free - $20"): a value of 0.
  const words = text.toLowerCase().split(/[^\p{L}]+/u);
  if ((matches.length === 0 && free.has(text.toLowerCase())) || words.some((w) => free.has(w))) values.push('0');

  const unique = new Map<number, string>();
  for (const v of values) if (!unique.has(Number(v))) unique.set(Number(v), v);
  const sorted = [...unique.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);

  // No symbol written next to the price: the site's (or event's) default currency, for prices other than 0.
  if (!symbol && sorted.some((v) => Number(v) !== 0) && defaults.currencySymbol) {
    symbol = defaults.currencySymbol;
    position = defaults.currencyPosition || 'prefix';
  }
  return {
    values: sorted,
    currencySymbol: symbol,
    currencyCode: code || (defaults.currencyCode ?? ''),
    currencyPosition: position,
    text,
  };
}

export interface FormatCostOptions {
  /** The label of a zero cost, translated by the caller. */
  free?: string;
}

/**
 * The event's `cost` string: one value → `$23`; a range → `min – max` (en dash); 0 → the free label
 * (`Free – $20` for a range from 0); no number → the text as written (`"Donation"`) or `""`.
 */
export function formatCost(details: Pick<CostDetails, 'values' | 'currencySymbol' | 'currencyPosition'> & { text?: string }, opts: FormatCostOptions = {}): string {
  const free = opts.free ?? 'Free';
  const { values } = details;
  if (values.length === 0) return details.text ?? '';
  const show = (v: string): string => {
    if (Number(v) === 0) return free;
    if (!details.currencySymbol) return v;
    return details.currencyPosition === 'suffix' ? `${v}${details.currencySymbol}` : `${details.currencySymbol}${v}`;
  };
  const min = show(values[0]);
  const max = show(values[values.length - 1]);
  return min === max ? min : `${min} – ${max}`;
}
