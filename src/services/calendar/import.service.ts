/**
 * Importing an iCalendar text into the calendar (the workflow task `calendar.importEvents`, and anything else that
 * imports): parsed off the main thread (./ical-import), each event written through the events service, so the
 * same access rules, status scale-back, venue/organizer find-or-create and term rules apply as to a REST write.
 *
 * Repeatable: each event is keyed by its UID (calendar_event_sources). An import that meets a UID again updates
 * that event, if the importer may edit it (else the event is reported as skipped), so running an import twice, or
 * once more after a crash, never duplicates events. Each event is one transaction (its write and its UID row).
 */
import { CalendarEventEntity, CalendarEventSourceEntity } from '../../../entities/calendar';
import type { RequestContext } from '../../context';
import { withTransaction } from '../../context';
import { ValidationError } from '../../errors/app-error';
import { canEditPost, requireCalendar } from './access';
import type { CalendarEventService, EventWrite } from './events.service';
import { IcsParsePool } from './ical-import/pool';
import type { ParsedEvent } from './ical-import/parse';

/** Largest iCalendar text one import takes (characters). */
export const MAX_ICS_LENGTH = 2 * 1024 * 1024;
/** Most events one import writes. */
export const MAX_IMPORT_EVENTS = 1000;
const STATUSES = ['publish', 'draft', 'pending', 'private'] as const;

export interface ImportInput {
  ics: unknown;
  /** Status of created events (scaled back by role as any write is); default publish. */
  status?: unknown;
}

export interface ImportedEventReport {
  uid: string | null;
  id?: number;
  action: 'created' | 'updated' | 'skipped';
  reason?: string;
  recurring?: boolean;
}

export interface ImportResult {
  created: number;
  updated: number;
  skipped: number;
  events: ImportedEventReport[];
}

const invalid = (field: string, message: string) =>
  new ValidationError(message, { fieldErrors: [{ resource: 'CalendarImport', field, code: 'invalid', message }] });

export class CalendarImportService {
  constructor(
    private readonly events: CalendarEventService,
    private readonly parser = new IcsParsePool(),
  ) {}

  async importIcs(ctx: RequestContext, input: ImportInput, signal?: AbortSignal): Promise<ImportResult> {
    if (input === null || typeof input !== 'object') throw invalid('ics', 'The import needs an object with the iCalendar text in `ics`.');
    const { ics, status } = input;
    if (typeof ics !== 'string' || ics.trim() === '') throw invalid('ics', '`ics` must be the iCalendar text (a non-empty string).');
    if (ics.length > MAX_ICS_LENGTH) throw invalid('ics', `\`ics\` is longer than ${MAX_ICS_LENGTH} characters.`);
    if (status !== undefined && !(STATUSES as readonly unknown[]).includes(status)) throw invalid('status', `\`status\` must be one of ${STATUSES.join(', ')}.`);
    requireCalendar(ctx.viewer, 'calendar.create');
    const parsed = await this.parser.parse(ics, signal);
    if ('syntaxError' in parsed) throw invalid('ics', parsed.syntaxError);
    if (parsed.events.length > MAX_IMPORT_EVENTS) throw invalid('ics', `The file has ${parsed.events.length} events; one import takes at most ${MAX_IMPORT_EVENTS}.`);
    const result: ImportResult = { created: 0, updated: 0, skipped: 0, events: [] };
    for (const p of parsed.skipped) result.events.push({ uid: p.uid ?? null, action: 'skipped', reason: p.reason });
    for (const event of parsed.events) {
      signal?.throwIfAborted();
      result.events.push(await this.importOne(ctx, event, status as EventWrite['status']));
    }
    for (const r of result.events) result[r.action]++;
    return result;
  }

  private async importOne(ctx: RequestContext, p: ParsedEvent, status: EventWrite['status']): Promise<ImportedEventReport> {
    const write: EventWrite = {
      title: p.title,
      description: p.description,
      startDate: p.startDate,
      endDate: p.endDate,
      allDay: p.allDay,
      ...(p.timezone ? { timezone: p.timezone } : {}),
      ...(p.website ? { website: p.website } : {}),
      categories: p.categories,
      venue: p.venue ? [{ name: p.venue.name, ...(p.venue.lat !== undefined ? { geoLat: p.venue.lat, geoLng: p.venue.lng } : {}) }] : [],
      organizer: p.organizer ? [{ name: p.organizer.name, ...(p.organizer.email ? { email: p.organizer.email } : {}) }] : [],
    };
    const base = { uid: p.uid, ...(p.recurring ? { recurring: true } : {}) };
    try {
      return await this.writeOne(ctx, p, write, status, base);
    } catch (e) {
      // One event's bad data (e.g. a date the calendar cannot hold) skips that event (its transaction rolled back),
      // not the import.
      if (e instanceof ValidationError) return { ...base, action: 'skipped', reason: e.message };
      throw e;
    }
  }

  private writeOne(ctx: RequestContext, p: ParsedEvent, write: EventWrite, status: EventWrite['status'], base: Pick<ImportedEventReport, 'uid' | 'recurring'>): Promise<ImportedEventReport> {
    return withTransaction(ctx, async (tx) => {
      const sources = tx.db.getRepository(CalendarEventSourceEntity);
      const source = await sources.findOne({ where: { uid: p.uid } });
      if (source) {
        const current = await tx.db.getRepository(CalendarEventEntity).findOne({ where: { id: source.eventId } });
        if (!current) return { ...base, action: 'skipped' as const, reason: 'the event imported under this UID is gone' };
        if (current.status === 'trash') return { ...base, id: source.eventId, action: 'skipped' as const, reason: 'the event imported under this UID is in the trash' };
        if (!canEditPost(tx.viewer, current)) return { ...base, action: 'skipped' as const, reason: 'the event imported under this UID is not yours to edit' };
        const updated = await this.events.update(tx, source.eventId, write);
        return { ...base, id: updated.id, action: 'updated' as const };
      }
      const created = await this.events.create(tx, { ...write, ...(status ? { status } : {}) });
      await sources.insert({ uid: p.uid, eventId: created.id });
      return { ...base, id: created.id, action: 'created' as const };
    });
  }

  close(): Promise<void> {
    return this.parser.close();
  }
}
