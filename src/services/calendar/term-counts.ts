/**
 * Term counts (published events per category or tag, WordPress' term_taxonomy.count) are stored on the term and
 * recounted, inside the write transaction, for every term whose links or whose events' status a write changes. Reads
 * (term shapes, lists ordered by count, hide_empty) then cost nothing.
 *
 * Atomic on both databases: the recount is computed from the links themselves (never incremented), and on
 * PostgreSQL the term rows are locked first, so of two concurrent writers the later one recounts in a statement that
 * starts after the earlier one committed and sees both changes. SQLite has one writer at a time.
 * The lock is FOR NO KEY UPDATE (what the count UPDATE takes anyway), not FOR UPDATE: inserting a link takes FOR KEY
 * SHARE on the term (the foreign key check), which FOR UPDATE conflicts with — two writers that both linked the
 * term would each wait for the other's key share (a deadlock on every concurrent link of one term).
 */
import type { EntityManager } from 'typeorm';
import { isPostgres } from '../../db/transaction';

const CHUNK = 500;

/** Recount these terms from the links (call inside the write transaction, after changing links or statuses). */
export async function recountTerms(tx: EntityManager, termIds: Iterable<number>): Promise<void> {
  const ids = [...new Set(termIds)].sort((a, b) => a - b);
  const pg = isPostgres(tx);
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const list = chunk.map((_, k) => (pg ? `$${k + 1}` : '?')).join(', ');
    if (pg) await tx.query(`SELECT id FROM calendar_terms WHERE id IN (${list}) ORDER BY id FOR NO KEY UPDATE`, chunk);
    await tx.query(
      `UPDATE calendar_terms SET count = (SELECT COUNT(*) FROM calendar_event_terms l JOIN calendar_events e ON e.id = l.event_id` +
        ` WHERE e.status = 'publish' AND l.term_id = calendar_terms.id) WHERE id IN (${list})`,
      chunk,
    );
  }
}

/** Recount every term (after bulk loads that bypass the services, e.g. the bench seed). */
export async function recountAllTerms(db: EntityManager): Promise<void> {
  await db.query(
    `UPDATE calendar_terms SET count = (SELECT COUNT(*) FROM calendar_event_terms l JOIN calendar_events e ON e.id = l.event_id` +
      ` WHERE e.status = 'publish' AND l.term_id = calendar_terms.id)`,
  );
}

/** The terms an event is linked to now (read inside the transaction). */
export async function termIdsOfEvent(tx: EntityManager, eventId: number): Promise<number[]> {
  const rows: Array<{ term_id: number }> = await tx.query(
    `SELECT term_id FROM calendar_event_terms WHERE event_id = ${isPostgres(tx) ? '$1' : '?'}`,
    [eventId],
  );
  return rows.map((r) => Number(r.term_id));
}
