/**
 * Calendar writes are scoped to the token (issue 20 item 9): a classic token needs the `calendar` scope (a
 * fine-grained token the `calendar: write` permission) to write with the user's calendar role; a token made for
 * repositories or workflows (`repo`, `public_repo`, `workflow`) is refused — REST 403 `rest_forbidden` in
 * WordPress' shape, GraphQL FORBIDDEN — and nothing is written. Reads need no scope.
 */
import { IdentityFixtures } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { restCall } from '../helpers/rest-client';

let t: TestApp;
let f: IdentityFixtures;
let base: string;
const tokens: Record<string, string> = {};

async function call(method: string, path: string, token: string, body?: unknown) {
  const r = await restCall(base, method, path, { token, body });
  return { status: r.status, body: r.body };
}

const event = (title: string) => ({ title, start_date: '2026-03-10 19:00:00', end_date: '2026-03-10 20:00:00' });
const CREATE = 'mutation($input: EventInput!) { createEvent(input: $input) { id } }';

beforeAll(async () => {
  t = await startTestApp({ env: { CALENDAR_NOW: '2026-01-01T00:00:00Z', CALENDAR_TIMEZONE: 'UTC' } });
  base = `${t.url}/calendar/events/v1`;
  f = new IdentityFixtures(t.db.dataSource);
  const editor = await f.user('scope-editor', { calendarRole: 'editor' });
  tokens.publicRepo = await f.classicToken(editor, ['public_repo']);
  tokens.workflow = await f.classicToken(editor, ['workflow']);
  tokens.repo = await f.classicToken(editor, ['repo', 'security_events']);
  tokens.calendar = await f.classicToken(editor, ['calendar']);
  // A fine-grained token selects at least one repository; the calendar permission is what counts here.
  const repo = `${editor.login}/${(await f.repo(editor, { name: 'site' })).name}`;
  tokens.fineRead = await f.fineGrainedToken(editor, [repo], { calendar: 'read' });
  tokens.fineWrite = await f.fineGrainedToken(editor, [repo], { calendar: 'write' });
});

afterAll(async () => {
  await t?.close();
});

describe('calendar writes need the calendar scope', () => {
  it.each(['publicRepo', 'workflow', 'repo', 'fineRead'])('a %s token: REST 403 rest_forbidden, GraphQL FORBIDDEN, nothing written', async (name) => {
    const r = await call('POST', '/events', tokens[name], event(`By ${name}`));
    expect(r).toEqual({ status: 403, body: { code: 'rest_forbidden', message: expect.any(String), data: { status: 403 } } });
    const g = await gql(t.url, CREATE, { input: { title: `By ${name}`, startDate: '2026-03-10 19:00:00', endDate: '2026-03-10 20:00:00' } }, tokens[name]);
    expect(g.body.errors?.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
    const terms = await call('POST', '/categories', tokens[name], { name: `Cat ${name}` });
    expect(terms.status).toBe(403);
    const [{ n }] = await t.db.dataSource.query(`SELECT COUNT(*) AS n FROM calendar_events WHERE title = '${`By ${name}`}'`);
    expect(Number(n)).toBe(0);
  });

  it.each(['calendar', 'fineWrite'])('a %s token writes with the role (201, then edit and trash)', async (name) => {
    const r = await call('POST', '/events', tokens[name], event(`Scoped ${name}`));
    expect([r.status, r.body.status]).toEqual([201, 'publish']);
    expect((await call('POST', `/events/${r.body.id}`, tokens[name], { title: 'Edited' })).status).toBe(200);
    expect((await call('DELETE', `/events/${r.body.id}`, tokens[name])).status).toBe(200);
    const g = await gql(t.url, CREATE, { input: { title: `Scoped GraphQL ${name}`, startDate: '2026-03-10 19:00:00', endDate: '2026-03-10 20:00:00' } }, tokens[name]);
    expect(g.body.errors).toBeUndefined();
  });

  it('reads need no scope: a repo token of an editor still lists drafts', async () => {
    const draft = await call('POST', '/events', tokens.calendar, { ...event('A draft'), status: 'draft' });
    expect(draft.status).toBe(201);
    const list = await call('GET', '/events?start_date=2026-03-01&end_date=2026-03-31', tokens.repo);
    expect(list.status).toBe(200);
    expect(list.body.events.map((e: { id: number }) => e.id)).toContain(draft.body.id);
  });
});
