/**
 * A large JSON array answer as one Buffer, byte-identical to `JSON.stringify(items)`: each element is
 * stringified on its own (small, flat strings) and copied into a buffer of the exact size, which is sent as
 * it is (no second serialization, no flattening of one 650 KB string, no UTF-8 conversion while writing to
 * the socket). The route sets the family's media type as for any body.
 */
export function jsonArrayBody(items: readonly unknown[]): Buffer {
  const texts: string[] = new Array(items.length);
  let length = 2 + Math.max(0, items.length - 1);
  for (let i = 0; i < items.length; i++) {
    // JSON.stringify writes `null` for an element it would skip (undefined, function, symbol).
    const t = JSON.stringify(items[i]) ?? 'null';
    texts[i] = t;
    length += Buffer.byteLength(t, 'utf8');
  }
  const buf = Buffer.allocUnsafe(length);
  let at = 0;
  buf[at++] = 0x5b; // [
  for (let i = 0; i < texts.length; i++) {
    if (i > 0) buf[at++] = 0x2c; // ,
    at += buf.write(texts[i], at, 'utf8');
  }
  buf[at++] = 0x5d; // ]
  return buf;
}
