/**
 * `wp_json_encode` as WordPress answers REST requests (PHP json_encode, default flags): `/` is escaped as `\/`
 * and every non-ASCII character as `\uXXXX` (lower-case hex; characters outside the BMP as their UTF-16
 * surrogate pair). Those characters can only occur inside JSON strings, so one replace over JSON.stringify's
 * output is exact; ASCII-only bodies without `/` pay one regex test.
 */
const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;

function escapeNonAscii(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

export function wpJsonEncode(value: unknown): string {
  let json = JSON.stringify(value);
  if (json === undefined) return 'null';
  // `/` first, with the engine's native replaceAll (cheaper than a regex callback per URL slash or split/join
  // on a long event list; figures in bench/README.md).
  json = json.replaceAll('/', '\\/');
  return NON_ASCII.test(json) ? json.replace(NON_ASCII_ALL, escapeNonAscii) : json;
}
