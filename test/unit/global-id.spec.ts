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
});
