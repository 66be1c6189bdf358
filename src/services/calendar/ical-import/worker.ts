/**
 * The iCalendar import's worker thread (./pool): parsing a large file is CPU work that must not hold the event
 * loop. Loaded as compiled JavaScript from dist/ (also under jest, whose global setup builds dist/).
 */
import { IcsSyntaxError, parseIcs, type ParseResult } from './parse';

export default function parseInWorker(source: string): ParseResult | { syntaxError: string } {
  try {
    return parseIcs(source);
  } catch (e) {
    if (e instanceof IcsSyntaxError) return { syntaxError: e.message };
    throw e;
  }
}
