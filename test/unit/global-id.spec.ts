import { fromGlobalId, toGlobalId } from '../../resolvers/common/global-id';

describe('global ids', () => {
  it.each([
    ['User', 1],
    ['Repository', 123456789],
    ['SecretScanningAlert', '42-7'],
  ])('round-trips %s:%s and stays opaque', (type, id) => {
    const g = toGlobalId(type, id);
    expect(g).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(g).not.toContain(String(type));
    expect(fromGlobalId(g)).toEqual({ typeName: type, id: String(id) });
  });

  it.each(['', 'not base64!', Buffer.from('nocolon').toString('base64url'), Buffer.from('lower:1').toString('base64url'), 'x'.repeat(500)])(
    'rejects malformed id %p',
    (g) => {
      expect(fromGlobalId(g)).toBeNull();
    },
  );

  it('numeric ids (kept per type) encode exactly as base64url of "<Type>:<id>", however often and in whatever order', () => {
    const ids = [0, -0, 1, 7, 2 ** 31 - 1, 123456789, 1.5, Number.NaN, 42];
    for (let round = 0; round < 3; round++) {
      for (const type of ['User', 'Repository', 'SecretScanningAlert']) {
        for (const id of ids) expect(toGlobalId(type, id)).toBe(Buffer.from(`${type}:${id}`, 'utf8').toString('base64url'));
      }
    }
    // Past the bound the kept ids are dropped and made again: still the same ids.
    for (let id = 1; id <= 60_000; id++) toGlobalId('Bulk', id);
    expect(toGlobalId('Bulk', 5)).toBe(Buffer.from('Bulk:5').toString('base64url'));
    expect(toGlobalId('Bulk', 59_999)).toBe(Buffer.from('Bulk:59999').toString('base64url'));
  });
});
