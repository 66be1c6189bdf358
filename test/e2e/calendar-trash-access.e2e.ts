/**
 * Access to posts in the trash (issue 20 item 6), over REST and GraphQL alike:
 *  - a trashed post is judged by the status it had before (WordPress' `_wp_trash_meta_status`): a contributor may
 *    neither edit nor restore its own event once an editor published and trashed it (edit/delete_published_posts);
 *  - the trash is read-only: a write to a trashed post answers what a read of it answers (events: 403
 *    `event-no-longer-available`), for editors too; restore first.
 */
import { toGlobalId } from '../../resolvers/common/global-id';
import { IdentityFixtures } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { restCall } from '../helpers/rest-client';

const NOW = '2025-03-03T12:00:00Z';
let t: TestApp;
let base: string;
let editor: string;
let contributor: string;

async function call(method: string, path: string, token: string, body?: unknown) {
  const r = await restCall(base, method, path, { token, body });
  return { status: r.status, body: r.body };
}

const UPDATE = 'mutation($id: ID!, $input: EventInput!) { updateEvent(id: $id, input: $input) { id title status } }';
const RESTORE = 'mutation($id: ID!) { restoreEvent(id: $id) { id status } }';
const codes = (r: { body: { errors?: Array<{ extensions?: Record<string, unknown> }> } }) => r.body.errors?.map((e) => e.extensions?.code);

beforeAll(async () => {
  t = await startTestApp({ env: { CALENDAR_NOW: NOW, CALENDAR_TIMEZONE: 'UTC' } });
  base = `${t.url}/calendar/events/v1`;
  const f = new IdentityFixtures(t.db.dataSource);
  editor = await f.classicToken(await f.user('trash-editor', { calendarRole: 'editor' }), ['calendar']);
  contributor = await f.classicToken(await f.user('trash-contrib', { calendarRole: 'contributor' }), ['calendar']);
});

afterAll(async () => {
  await t?.close();
});

/** A contributor's draft, published by the editor, then trashed by the editor. */
async function publishedThenTrashed(): Promise<number> {
  const c = await call('POST', '/events', contributor, { title: 'Mine', start_date: '2025-03-10 19:00:00', end_date: '2025-03-10 22:00:00' });
  expect([c.status, c.body.status]).toEqual([201, 'draft']);
  expect((await call('POST', `/events/${c.body.id}`, editor, { status: 'publish' })).body.status).toBe('publish');
  expect((await call('DELETE', `/events/${c.body.id}`, editor)).body.status).toBe('trash');
  return c.body.id;
}

describe('an event that was published, then trashed', () => {
  it('its contributor may not edit it (REST 403 rest_forbidden, GraphQL FORBIDDEN) nor restore it', async () => {
    const id = await publishedThenTrashed();
    const patch = await call('PATCH', `/events/${id}`, contributor, { title: 'Changed' });
    expect({ status: patch.status, code: patch.body.code }).toEqual({ status: 403, code: 'rest_forbidden' });
    const g = await gql(t.url, UPDATE, { id: toGlobalId('Event', id), input: { title: 'Changed' } }, contributor);
    expect(codes(g)).toEqual(['FORBIDDEN']);
    const restore = await gql(t.url, RESTORE, { id: toGlobalId('Event', id) }, contributor);
    expect(codes(restore)).toEqual(['FORBIDDEN']);
    // Nothing changed: the editor restores it as it was.
    const back = await gql(t.url, RESTORE, { id: toGlobalId('Event', id) }, editor);
    expect(back.body.data?.restoreEvent.status).toBe('PUBLISH');
    expect((await call('GET', `/events/${id}`, editor)).body.title).toBe('Mine');
  });

  it('an editor gets the answer a read gets (403 event-no-longer-available) until it is restored, on REST and GraphQL', async () => {
    const id = await publishedThenTrashed();
    const read = await call('GET', `/events/${id}`, editor);
    const patch = await call('PATCH', `/events/${id}`, editor, { title: 'Changed' });
    expect({ status: patch.status, code: patch.body.code }).toEqual({ status: read.status, code: read.body.code });
    expect({ status: patch.status, code: patch.body.code }).toEqual({ status: 403, code: 'event-no-longer-available' });
    const g = await gql(t.url, UPDATE, { id: toGlobalId('Event', id), input: { title: 'Changed' } }, editor);
    expect(codes(g)).toEqual(['FORBIDDEN']);
    expect((await gql(t.url, RESTORE, { id: toGlobalId('Event', id) }, editor)).body.data?.restoreEvent.status).toBe('PUBLISH');
    const after = await call('PATCH', `/events/${id}`, editor, { title: 'Changed' });
    expect([after.status, after.body.title]).toEqual([200, 'Changed']);
  });

  it('a contributor still restores its own trashed draft (to draft)', async () => {
    const c = await call('POST', '/events', contributor, { title: 'Draft', start_date: '2025-03-10 19:00:00', end_date: '2025-03-10 22:00:00' });
    expect((await call('DELETE', `/events/${c.body.id}`, contributor)).body.status).toBe('trash');
    const r = await gql(t.url, RESTORE, { id: toGlobalId('Event', c.body.id) }, contributor);
    expect(r.body.data?.restoreEvent.status).toBe('DRAFT');
  });
});

describe('a trashed venue', () => {
  it('answers a write as it answers a read (403 venue-not-accessible) until restored', async () => {
    const v = await call('POST', '/venues', editor, { venue: 'Old Hall' });
    expect((await call('DELETE', `/venues/${v.body.id}`, editor)).status).toBe(200);
    const read = await call('GET', `/venues/${v.body.id}`, editor);
    const write = await call('POST', `/venues/${v.body.id}`, editor, { zip: '12345' });
    expect({ status: write.status, code: write.body.code }).toEqual({ status: read.status, code: read.body.code });
    expect(write.status).toBe(403);
  });
});
