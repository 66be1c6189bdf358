/**
 * A TypeORM logger that records the SQL statements (with their parameters) run while recording is on,
 * to count a request's statements and to find one that runs twice. Pass it to `startTestApp({ logger })`
 * or `openTestDatabase({ logger })`.
 */
import type { Logger } from 'typeorm';

export interface Statement {
  sql: string;
  parameters: unknown[];
}

export class SqlLog implements Logger {
  private recording = false;
  statements: Statement[] = [];

  logQuery(query: string, parameters?: unknown[]): void {
    if (this.recording) this.statements.push({ sql: query, parameters: parameters ?? [] });
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}

  /** The statements `fn` runs (and `fn`'s result). */
  async record<T>(fn: () => Promise<T>): Promise<{ result: T; statements: Statement[] }> {
    this.statements = [];
    this.recording = true;
    try {
      const result = await fn();
      return { result, statements: [...this.statements] };
    } finally {
      this.recording = false;
    }
  }
}

const keyOf = (s: Statement) => `${s.sql}\u0000${JSON.stringify(s.parameters)}`;

/** The statements that run more than once (same SQL, same parameters), each with its count. */
export function repeatedStatements(statements: Statement[]): Array<{ sql: string; parameters: unknown[]; times: number }> {
  const counts = new Map<string, { s: Statement; times: number }>();
  for (const s of statements) {
    const k = keyOf(s);
    const c = counts.get(k);
    if (c) c.times += 1;
    else counts.set(k, { s, times: 1 });
  }
  return [...counts.values()].filter((c) => c.times > 1).map((c) => ({ sql: c.s.sql, parameters: c.s.parameters, times: c.times }));
}

/** Statements as short lines, for a failure message. */
export function describeStatements(statements: Statement[]): string {
  return statements.map((s) => `  ${s.sql.slice(0, 160)} ${JSON.stringify(s.parameters).slice(0, 80)}`).join('\n');
}
