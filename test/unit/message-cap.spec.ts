import { capMessage, MAX_MESSAGE_CHARS, MAX_QUOTED_CHARS } from '../../src/errors/message-cap';

describe('capMessage', () => {
  it('leaves short messages and short quoted values alone', () => {
    expect(capMessage('Not Found')).toBe('Not Found');
    const m = `Variable "$x" got invalid value "${'a'.repeat(100)}"; Int cannot represent non-integer value: "abc"`;
    expect(capMessage(m)).toBe(m);
  });

  it('cuts every long quoted value to 100 characters + "…" and keeps the text around it', () => {
    const big = 'y'.repeat(9_000_000);
    const started = Date.now();
    const m = capMessage(`Variable "$x" got invalid value "${big}"; Int cannot represent non-integer value: "${big}"`);
    expect(Date.now() - started).toBeLessThan(500);
    const cut = `"${'y'.repeat(MAX_QUOTED_CHARS)}…"`;
    expect(m).toBe(`Variable "$x" got invalid value ${cut}; Int cannot represent non-integer value: ${cut}`);
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
