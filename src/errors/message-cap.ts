/**
 * The last line of defence against error messages that echo input of any length (graphql-js quotes the
 * value a variable got, a 404 may quote the path): every message an error mapper sends goes through
 * `capMessage`. Quoted values keep their first 100 characters + "…", the whole message at most 1,000.
 */
export const MAX_QUOTED_CHARS = 100;
export const MAX_MESSAGE_CHARS = 1000;

/** `value` without a trailing lone high surrogate (what remains after cutting inside a pair). */
function dropHalfPair(value: string): string {
  const c = value.charCodeAt(value.length - 1);
  return c >= 0xd800 && c <= 0xdbff ? value.slice(0, -1) : value;
}

/** `value` in at most `max` characters: cut to max - 1 + "…" when longer. */
export function truncate(value: string, max: number): string {
  if (value.length <= max) return value;
  return `${dropHalfPair(value.slice(0, max - 1))}…`;
}

/**
 * Every double-quoted run (JSON-style backslash escapes) longer than MAX_QUOTED_CHARS is cut to its first
 * MAX_QUOTED_CHARS characters + "…" (the closing quote and the text after it stay); then the whole
 * message is cut to MAX_MESSAGE_CHARS. One linear pass, whatever the size of the input.
 */
export function capMessage(message: string): string {
  if (message.length <= MAX_QUOTED_CHARS) return message;
  let out = '';
  let i = 0;
  while (i < message.length && out.length <= MAX_MESSAGE_CHARS) {
    const open = message.indexOf('"', i);
    if (open < 0) {
      out += message.slice(i, i + MAX_MESSAGE_CHARS + 1);
      break;
    }
    out += message.slice(i, open + 1);
    // Find the closing quote, skipping escaped characters.
    let j = open + 1;
    for (;;) {
      j = message.indexOf('"', j);
      if (j < 0) {
        j = message.length;
        break;
      }
      let backslashes = 0;
      for (let k = j - 1; k > open && message[k] === '\\'; k--) backslashes++;
      if (backslashes % 2 === 0) break;
      j++;
    }
    const inner = message.slice(open + 1, Math.min(j, message.length));
    out += inner.length > MAX_QUOTED_CHARS ? `${dropHalfPair(inner.slice(0, MAX_QUOTED_CHARS))}…` : inner;
    if (j < message.length) out += '"';
    i = j + 1;
  }
  return truncate(out, MAX_MESSAGE_CHARS);
}
