/**
 * Creating calendar items over the calendar's REST API (The Events Calendar's routes), for e2e tests that need
 * items to read, change or delete.
 */
import { restCall } from './rest-client';

/** The calendar's REST collections items are created in. */
export type CalendarCollection = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

/** `POST <calendarRoot>/<collection>` as `token`: the created item; any answer but 201 throws with its body. */
export async function createCalendarItem<T = any>(calendarRoot: string, collection: CalendarCollection, fields: Record<string, unknown>, token: string): Promise<T> {
  const r = await restCall<T>(calendarRoot, 'POST', `/${collection}`, { token, body: fields });
  if (r.status !== 201) throw new Error(`creating in /${collection} failed: ${r.status} ${r.text}`);
  return r.body;
}
