/**
 * Client text is decoded the same way whatever database stores it (issue 24 item 5): a lone UTF-16 surrogate in a
 * JSON string (`"\ud800"` is valid JSON) becomes one U+FFFD before anything else sees it — REST bodies and GraphQL
 * variables alike — so SQLite and PostgreSQL store and answer the same text. Runs on both.
 */
import { wellFormed, wellFormedJson } from '../../src/services/common/decode';
import { IdentityFixtures } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { testDialect } from '../helpers/db';

let t: TestApp;
let editor: string;

beforeAll(async () => {
  t = await startTestApp({ env: { CALENDAR_NOW: '2026-01-01T00:00:00Z', CALENDAR_TIMEZONE: 'UTC' } });
  const f = new IdentityFixtures(t.db.dataSource);
  editor = await f.classicToken(await f.user('decode-editor', { calendarRole: 'editor' }), ['calendar']);
});

afterAll(async () => {
  await t?.close();
});

const stored = async (id: number) => {
  const [row] = await t.db.dataSource.query(`SELECT title, description FROM calendar_events WHERE id = ${Number(id)}`);
  return { title: row.title as string, description: row.description as string };
};

describe(`lone surrogates in calendar text (${testDialect()})`, () => {
  it('wellFormed: one U+FFFD per lone surrogate, pairs kept', () => {
    expect(['a\ud800b', '\udc00x', '\ud83d\ude00\ud800', '\ud800\ud800\udc00', 'plain'].map(wellFormed)).toEqual([
      'a\ufffdb',
      '\ufffdx',
      '\ud83d\ude00\ufffd',
      '\ufffd\ud800\udc00',
      'plain',
    ]);
    expect(wellFormedJson({ ['k\udc00']: ['x\ud800', { y: 1, z: null, w: 'ok' }] })).toEqual({ ['k\ufffd']: ['x\ufffd', { y: 1, z: null, w: 'ok' }] });
  });

  it('REST: stored and answered as one U+FFFD', async () => {
    // JSON.stringify writes a lone surrogate as the escape \ud800: the body is valid JSON and valid UTF-8.
    const body = JSON.stringify({ title: 'Caf\ud800e', description: 'x\udfffy', start_date: '2026-03-10 19:00:00', end_date: '2026-03-10 20:00:00' });
    expect(body).toContain('\\ud800');
    const res = await fetch(`${t.url}/calendar/events/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor}`, 'content-type': 'application/json' },
      body,
    });
    const e = (await res.json()) as { id: number; title: string };
    expect(res.status).toBe(201);
    expect(e.title).toBe('Caf\ufffde');
    expect(await stored(e.id)).toEqual({ title: 'Caf\ufffde', description: 'x\ufffdy' });
    const again = (await (await fetch(`${t.url}/calendar/events/v1/events/${e.id}`)).json()) as { title: string };
    expect(again.title).toBe('Caf\ufffde');
  });

  it('GraphQL variables: the same', async () => {
    const r = await gql<{ createEvent: { id: string; title: string } }>(
      t.url,
      'mutation($input: EventInput!) { createEvent(input: $input) { id title } }',
      { input: { title: 'Tea\udc00time', startDate: '2026-03-11 19:00:00', endDate: '2026-03-11 20:00:00' } },
      editor,
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data?.createEvent.title).toBe('Tea\ufffdtime');
    const [row] = await t.db.dataSource.query(`SELECT title FROM calendar_events WHERE title LIKE 'Tea%'`);
    expect(row.title).toBe('Tea\ufffdtime');
  });
});
