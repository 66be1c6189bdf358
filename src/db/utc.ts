/**
 * The server works in UTC: timestamps without a zone (SQLite datetime, PostgreSQL timestamp) are
 * written and read as UTC on every machine, whatever its local zone.
 */
process.env.TZ = 'UTC';
export {};
