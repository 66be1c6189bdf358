import { gql, startTestApp, TestApp } from '../helpers/app';
import { IdentityFixtures } from '../fixtures/identity';

describe('server smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers { __typename } on /graphql', async () => {
    const r = await gql(t.url, '{ __typename }');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('resolves the viewer from a bearer token', async () => {
    const f = new IdentityFixtures(t.db.dataSource);
    const u = await f.user('smokeuser');
    const token = await f.classicToken(u, ['repo']);
    const r = await gql(t.url, '{ viewer { login } }', undefined, token);
    expect(r.body.data).toEqual({ viewer: { login: 'smokeuser' } });
  });
});
