import { capMessage, MAX_MESSAGE_CHARS, MAX_QUOTED_CHARS } from '../../src/errors/message-cap';

describe('capMessage', () => {
  it('leaves short messages and short quoted values alone', () => {
    expect(capMessage('Not Found')).toBe('Not Found');
    const m = `Variable "$x" got invalid value "${'a'.repeat(100)}"; Int cannot represent non-integer value: "abc"`;
    expect(capMessage(m)).toBe(m);
  });

  it('cuts every long quoted value to 100 characters + "…" and keeps the text around it', () => {
    const big = 'y'.repeat(9_000_000);
    const m = capMessage(`Variable "$x" got invalid value "${big}"; Int cannot represent non-integer value: "${big}"`);
    const cut = `"${'y'.repeat(MAX_QUOTED_CHARS)}…"`;
    expect(m).toBe(`Variable "$x" got invalid value ${cut}; Int cannot represent non-integer value: ${cut}`);
  });

  /**
   * The message seen through a proxy that counts the characters each string operation reads (indexOf from its
   * start to what it finds, slice its length, an index read one), so the work is measured in characters, not time.
   */
  function counted(text: string): { message: string; read: () => number } {
    let read = 0;
    const target = new String(text);
    const message = new Proxy(target, {
      get(t, key) {
        if (key === 'length') return text.length;
        if (key === 'indexOf') {
          return (needle: string, from = 0) => {
            const at = text.indexOf(needle, from);
            read += (at < 0 ? text.length : at + needle.length) - from;
            return at;
          };
        }
        if (key === 'slice') {
          return (start?: number, end?: number) => {
            const part = text.slice(start, end);
            read += part.length;
            return part;
          };
        }
        if (typeof key === 'string' && /^\d+$/.test(key)) {
          read += 1;
          return text[Number(key)];
        }
        const v = Reflect.get(t, key);
        return typeof v === 'function' ? v.bind(text) : v;
      },
    }) as unknown as string;
    return { message, read: () => read };
  }

  it('reads each character of the message a bounded number of times, whatever its shape (one linear pass)', () => {
    const shapes = [
      `Variable "$x" got invalid value "${'y'.repeat(200_000)}"; tail`,
      // Many short quoted values, escaped quotes and runs of backslashes: the shapes that make naive scanners quadratic.
      Array.from({ length: 20_000 }, (_, i) => `"v${i}"`).join(' '),
      `x "${'a\\"'.repeat(50_000)}" tail`,
      `x "${'\\'.repeat(100_000)}" "${'b'.repeat(100_000)}`,
    ];
    for (const text of shapes) {
      const c = counted(text);
      const expected = capMessage(text);
      expect(capMessage(c.message)).toBe(expected);
      expect(c.read()).toBeLessThanOrEqual(3 * text.length);
    }
  });

  it('honours escaped quotes inside a quoted value and cuts an unterminated one', () => {
    const escaped = 'a\\"b'.repeat(60);
    expect(capMessage(`x "${escaped}" tail`)).toBe(`x "${escaped.slice(0, MAX_QUOTED_CHARS)}…" tail`);
    expect(capMessage(`open "${'z'.repeat(500)}`)).toBe(`open "${'z'.repeat(MAX_QUOTED_CHARS)}…`);
  });

  it('never leaves half of a surrogate pair', () => {
    const m = capMessage(`"${'a'.repeat(99)}${'😀'.repeat(10)}"`);
    expect(m).toBe(`"${'a'.repeat(99)}…"`);
    expect(capMessage('😀'.repeat(2000)).length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(capMessage('😀'.repeat(2000))).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('keeps the whole message within 1,000 characters', () => {
    expect(capMessage('w'.repeat(5000))).toBe(`${'w'.repeat(MAX_MESSAGE_CHARS - 1)}…`);
    expect(capMessage(Array.from({ length: 200 }, (_, i) => `"v${i}"`).join(' ')).length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
  });
});
