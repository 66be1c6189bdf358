/**
 * A list query whose SQL text is built once per shape and then only re-bound.
 *
 * Building a page statement with TypeORM's query builder on every request (`getQuery`,
 * `createSelectExpression`, `replacePropertyNamesForTheWholeQuery`, ...) was a visible share of a repository
 * list request, for a text that only changes with the query's shape. A `ListQuery` records the calls a service
 * makes (the same calls it would make on a `SelectQueryBuilder`: `andWhere`, `select`, `leftJoinAndSelect`,
 * ordering, limit/offset, an inline count) and their named parameters. The recorded calls ARE the cache key:
 * every SQL fragment a call passes goes into the key verbatim, so two queries share a text only when the
 * query builder would have been given the very same fragments (plus the dialect and the length of every
 * array parameter, which decides how many placeholders `:...name` becomes). Values never enter the text:
 * the first query of a shape replays the calls on a real query builder, takes its `getQuery()` (named
 * parameters still in place) and turns each `:name` into a placeholder bound by name on every later run.
 *
 * Rules for callers: SQL fragments must be constant for a shape (values go in parameters, never in the
 * text), as they already must be for SQLite's prepared-statement cache and PostgreSQL's named statements.
 */
import type { DataSource, EntityManager, EntityMetadata, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { DateUtils } from 'typeorm/util/DateUtils';
import { jsonTextSequence, runRead, TEXT_SEQUENCE_SEPARATOR } from '../../db/rows';

/** A statement text with its placeholders, bound by parameter name. */
export interface CompiledStatement {
  text: string;
  /** The positional values for `params` (throws when a name the text uses is missing). */
  bind(params: Readonly<Record<string, unknown>>): unknown[];
}

/** Distinct shapes kept (oldest dropped first); PostgreSQL names at most 256 statements (src/db/rows.ts). */
export const MAX_CACHED_STATEMENTS = 512;
const statements = new Map<string, CompiledStatement>();
/** The columns holding a whole page (`rowsAsJson`): its rows' texts, and how many rows. */
const GROUPED_ROWS = '__rows';
const GROUPED_COUNT = '__n';

/**
 * A page read as one value (`rowsAsJson`): `source` is the text the database gave, every row's JSON text in
 * order, separated by U+001E (which JSON text never holds unescaped); `texts` are those rows (each the JSON array
 * of the selected columns, or the one column's JSON when one is selected).
 */
export interface GroupedRows {
  source: string;
  texts: string[];
  /** The inline count's value, when there is one. */
  total: unknown;
}

/** Statements compiled so far (tests). */
export function cachedStatementCount(): number {
  return statements.size;
}

type Slot = { name: string; index?: number };

/**
 * Compile a query builder's named-parameter SQL (`getQuery()`) for the dialect: `:name` -> `?` (SQLite) or
 * `$n` (PostgreSQL, one `$n` per name, as TypeORM does), `:...name` -> one placeholder per element of the
 * array given in `params` now. Only names present in `params` are placeholders (TypeORM's rule).
 * Values are converted as TypeORM's drivers convert them (SQLite: booleans as 1/0, Dates as UTC text);
 * numbers are bound, not inlined.
 */
export function compileStatement(dialect: 'sqlite' | 'postgres', sql: string, params: Readonly<Record<string, unknown>>): CompiledStatement {
  const slots: Slot[] = [];
  const pgIndex = new Map<string, number>();
  const text = sql.replace(/:(\.\.\.)?([A-Za-z0-9_.]+)/g, (full, spread: string | undefined, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) return full;
    if (spread) {
      const n = (params[name] as unknown[]).length;
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        slots.push({ name, index: i });
        out.push(dialect === 'postgres' ? `$${slots.length}` : '?');
      }
      return out.join(', ');
    }
    if (dialect === 'postgres') {
      const known = pgIndex.get(name);
      if (known !== undefined) return `$${known}`;
      slots.push({ name });
      pgIndex.set(name, slots.length);
      return `$${slots.length}`;
    }
    slots.push({ name });
    return '?';
  });
  const sqlite = dialect === 'sqlite';
  return {
    text,
    bind(values) {
      const out = new Array<unknown>(slots.length);
      for (let i = 0; i < slots.length; i++) {
        const s = slots[i];
        if (!Object.prototype.hasOwnProperty.call(values, s.name)) throw new Error(`ListQuery: parameter ${s.name} is not bound`);
        let v = s.index === undefined ? values[s.name] : (values[s.name] as unknown[])[s.index];
        if (sqlite && s.index === undefined) {
          if (typeof v === 'boolean') v = +v;
          else if (v instanceof Date) v = DateUtils.mixedDateToUtcDatetimeString(v);
        }
        out[i] = v;
      }
      return out;
    },
  };
}

type Op = (qb: SelectQueryBuilder<any>) => void;

export class ListQuery<T extends ObjectLiteral> {
  readonly metadata: EntityMetadata;
  readonly dialect: 'sqlite' | 'postgres';
  private ops: Op[] = [];
  /** The recorded calls, fragment by fragment (the cache key with the array lengths). */
  private shape: string;
  private params: Record<string, unknown> = {};
  private limitValue?: number;
  private offsetValue?: number;
  private inlineCount?: ListQuery<any>;
  private inlineCountAlias?: string;
  /** The aliases of the selected columns, in order (`select` starts over, `addSelect` appends). */
  private selected: string[] = [];
  /** Every selected column is a JSON text value or NULL (`rowsAsJson`). */
  private jsonRows = false;
  /** What `count()` and an inline count compute over the rows (`countWith`). */
  private total = 'COUNT(1)';
  private whereCount = 0;
  /** The selections in order, [expression, alias] (a materialized page selects them over its joined-back rows). */
  private selections: Array<[string, string]> = [];
  /** Common table expressions written before the list's own text (`with`), in order. */
  private ctes: string[] = [];
  private recursiveCtes = false;
  /** The alias of the match count in `readHits`. */
  private hitsTotal = '';

  constructor(
    readonly db: EntityManager,
    readonly entity: new () => T,
    readonly alias: string,
  ) {
    const ds: DataSource = db.connection;
    this.metadata = ds.getMetadata(entity);
    this.dialect = ds.options.type === 'postgres' ? 'postgres' : 'sqlite';
    this.shape = `${ds.options.type}\u0001${this.metadata.name}\u0001${alias}`;
  }

  get driver() {
    return this.db.connection.driver;
  }

  private record(part: string, op: Op, params?: ObjectLiteral): this {
    this.shape += `\u0001${part}`;
    this.ops.push(op);
    if (params) Object.assign(this.params, params);
    return this;
  }

  /** How many conditions `andWhere` added. */
  get conditions(): number {
    return this.whereCount;
  }

  andWhere(where: string, params?: ObjectLiteral): this {
    this.whereCount++;
    return this.record(`W${where}`, (qb) => qb.andWhere(where), params);
  }

  select(selection: string, alias: string): this {
    this.selected = [alias];
    this.selections = [[selection, alias]];
    return this.record(`S${selection}\u0002${alias}`, (qb) => qb.select(selection, alias));
  }

  addSelect(selection: string, alias: string): this {
    this.selected = [...this.selected, alias];
    this.selections = [...this.selections, [selection, alias]];
    return this.record(`A${selection}\u0002${alias}`, (qb) => qb.addSelect(selection, alias));
  }

  /**
   * Compute the total of this query with `expression` instead of COUNT(1), e.g. `COALESCE(SUM(t.alerts), 0)` over
   * rows that each stand for many (kept totals).
   */
  countWith(expression: string): this {
    this.total = expression;
    return this.record(`T${expression}`, () => undefined);
  }

  /**
   * Declares that every column selected so far or later is a JSON text (`entityColumns().jsonRow`) or NULL.
   * `getRawMany` then reads the whole page as ONE value, `group_concat(row, char(30))` (PostgreSQL `string_agg`,
   * a JSON text sequence: rows.ts `jsonTextSequence`) over the page statement, each row being the JSON array of
   * the selected columns; each column's value is handed over already parsed (an array, or null). `readGrouped`
   * gives the text itself: equal texts are equal rows, which lets an answer made from them be reused. The drivers build a result object per row (pg also parses each column's text by type), and
   * that per-row cost was a large part of a 100-row page statement, on both databases.
   * The order of the rows is the page statement's ORDER BY, repeated inside the aggregate over the page's sort keys
   * (selected by the page statement as `__o0`, `__o1`, ...): `group_concat(row, char(30) ORDER BY ...)` (SQLite
   * >= 3.44; better-sqlite3 bundles a newer one, checked when the database opens: ormconfig.ts `checkSqliteOrderedAggregates`) and
   * `string_agg(row, chr(30) ORDER BY ...)`, so no rule about the order a subquery yields is relied on.
   */
  rowsAsJson(): this {
    this.jsonRows = true;
    return this.record('R', () => undefined);
  }

  /**
   * A common table expression the conditions or selections read (e.g. a category subtree), written at the head of
   * every statement of this query: `WITH [RECURSIVE] name AS (body)`. `name` may list its columns (`down(id)`).
   * Like every fragment, `body` is constant for a shape; its values go in `params`.
   */
  with(name: string, body: string, params?: ObjectLiteral, options: { recursive?: boolean } = {}): this {
    this.ctes = [...this.ctes, `${name} AS (${body})`];
    if (options.recursive) this.recursiveCtes = true;
    return this.record(`C${options.recursive ? 'R' : ''}${name}\u0002${body}`, () => undefined, params);
  }

  /** A join whose columns are not selected (its alias is for conditions and sorting). */
  leftJoin(entity: new () => ObjectLiteral, alias: string, condition: string, params?: ObjectLiteral): this {
    return this.record(`j${this.db.connection.getMetadata(entity).name}\u0002${alias}\u0002${condition}`, (qb) => qb.leftJoin(entity, alias, condition), params);
  }

  leftJoinAndSelect(entity: new () => ObjectLiteral, alias: string, condition: string): this {
    return this.record(`J${this.db.connection.getMetadata(entity).name}\u0002${alias}\u0002${condition}`, (qb) => qb.leftJoinAndSelect(entity, alias, condition));
  }

  orderBy(sort: string, order: 'ASC' | 'DESC'): this {
    return this.record(`O${sort}\u0002${order}`, (qb) => qb.orderBy(sort, order));
  }

  addOrderBy(sort: string, order: 'ASC' | 'DESC'): this {
    return this.record(`o${sort}\u0002${order}`, (qb) => qb.addOrderBy(sort, order));
  }

  setParameters(params: ObjectLiteral): this {
    Object.assign(this.params, params);
    return this;
  }

  /**
   * Bound on SQLite; part of the text on PostgreSQL (`limitClause`). A page size is a small integer from a bounded
   * argument (1..100 plus one), so the texts stay few.
   */
  limit(n: number | undefined): this {
    this.limitValue = n;
    return this;
  }

  /**
   * PostgreSQL plans a named statement once (a generic plan) only when that plan is estimated no dearer than planning
   * per execution; with `LIMIT $n` it assumes a tenth of the rows, so a page read was planned again on every request.
   * With the page size in the text the generic plan is costed for the page it reads and is kept.
   */
  private inlineLimit(): boolean {
    return this.dialect === 'postgres' && this.limitValue !== undefined && Number.isSafeInteger(this.limitValue) && this.limitValue >= 0;
  }

  private limitClause(): string {
    if (this.limitValue === undefined) return '';
    return this.inlineLimit() ? ` LIMIT ${this.limitValue}` : ' LIMIT :__limit';
  }

  /** Bound, not part of the text. */
  offset(n: number | undefined): this {
    this.offsetValue = n;
    return this;
  }

  /** The total of `count` (its rows, no ordering or paging) as column `alias` of every row (a scalar subquery). */
  addInlineCount(count: ListQuery<any>, alias: string): this {
    this.inlineCount = count;
    this.inlineCountAlias = alias;
    this.params = { ...count.params, ...this.params };
    return this;
  }

  clone(): ListQuery<T> {
    const c = Object.create(ListQuery.prototype) as ListQuery<T>;
    Object.assign(c, this);
    c.ops = [...this.ops];
    c.params = { ...this.params };
    c.selections = [...this.selections];
    c.ctes = [...this.ctes];
    return c;
  }

  /** The query builder these calls describe (the first time a shape is seen). */
  private queryBuilder(): SelectQueryBuilder<T> {
    const qb = this.db.getRepository(this.entity).createQueryBuilder(this.alias);
    for (const op of this.ops) op(qb);
    return qb;
  }

  private key(kind: string): string {
    let key = `${kind}\u0001${this.shape}`;
    if (this.inlineCount) key += `\u0001C${this.inlineCountAlias}\u0002${this.inlineCount.shape}`;
    if (this.limitValue !== undefined) key += this.inlineLimit() ? `\u0001L${this.limitValue}` : '\u0001L';
    if (this.offsetValue !== undefined) key += '\u0001F';
    if (kind === 'hits') key += `\u0001H${this.hitsTotal}`;
    // Which names are bound decides which `:name` become placeholders; an array's length, how many.
    for (const name in this.params) {
      const v = this.params[name];
      key += Array.isArray(v) ? `\u0001[${name}=${v.length}` : `\u0001:${name}`;
    }
    return key;
  }

  private statement(kind: 'rows' | 'count' | 'grouped' | 'hits'): CompiledStatement {
    const key = this.key(kind);
    let st = statements.get(key);
    if (st) {
      // Most recently used last: the oldest shapes are dropped first.
      statements.delete(key);
      statements.set(key, st);
      return st;
    }
    let sql: string;
    if (kind === 'hits') {
      sql = this.hitsSql();
    } else if (kind === 'count') {
      sql = this.queryBuilder().select(this.total, 'cnt').orderBy().getQuery();
    } else {
      const qb = this.queryBuilder();
      if (this.inlineCount) qb.addSelect(`(${this.inlineCount.queryBuilder().select(this.inlineCount.total).orderBy().getQuery()})`, this.inlineCountAlias!);
      // The sort keys, selected for the aggregate's own ORDER BY (grouped reads).
      const orders = kind === 'grouped' ? Object.entries(qb.expressionMap.orderBys) : [];
      orders.forEach(([sort], i) => qb.addSelect(sort, `__o${i}`));
      sql = qb.getQuery();
      sql += this.limitClause();
      if (this.offsetValue !== undefined) sql += ' OFFSET :__offset';
      if (kind === 'grouped') {
        const value = (a: string) => `p."${a}"`;
        // coalesce: a NULL value is the JSON text `null` (the aggregate would skip a NULL row).
        const row = this.selected.length === 1 ? `coalesce(${value(this.selected[0])}, 'null')` : `'[' || ${this.selected.map((a) => `coalesce(${value(a)}, 'null')`).join(` || ',' || `)} || ']'`;
        const total = this.inlineCount ? `, max(${value(this.inlineCountAlias!)}) AS "${this.inlineCountAlias}"` : '';
        // No ORDER BY: no order is promised (the aggregate's own).
        const orderBy = orders
          .map(([, o], i) => `p."__o${i}" ${typeof o === 'string' ? o : `${o.order}${o.nulls ? ` ${o.nulls}` : ''}`}`)
          .join(', ');
        sql = `SELECT ${jsonTextSequence(this.dialect, row, orderBy)} AS "${GROUPED_ROWS}", count(*) AS "${GROUPED_COUNT}"${total} FROM (${sql}) p`;
      }
    }
    if (kind !== 'hits' && this.ctes.length) sql = `${this.withClause()}${sql}`;
    st = compileStatement(this.dialect, sql, this.boundParams());
    if (statements.size >= MAX_CACHED_STATEMENTS) statements.delete(statements.keys().next().value!);
    statements.set(key, st);
    return st;
  }

  /** `WITH [RECURSIVE] a AS (...), b AS (...) ` for the `with` expressions (empty without any). */
  private withClause(more: string[] = []): string {
    const all = [...this.ctes, ...more];
    return all.length ? `WITH ${this.recursiveCtes ? 'RECURSIVE ' : ''}${all.join(', ')} ` : '';
  }

  /**
   * The statement of `readHits`: the matching rows' keys and sort keys found once (`hits`, materialized), one page
   * of them (`page`, materialized, ordered, limited), then the selections over the page's rows joined back by key,
   * in page order, with the count of `hits`. `page` names its key column as the entity's primary column, so a
   * selection may read the page's keys (`SELECT pi.id FROM page pi`).
   */
  private hitsSql(): string {
    const qb = this.queryBuilder();
    const pk = this.metadata.primaryColumns[0].databaseName;
    const q = (name: string) => `"${name}"`;
    const orders = Object.entries(qb.expressionMap.orderBys);
    if (!orders.length) throw new Error('ListQuery.readHits: the page needs an order (orderBy)');
    const keySort = new Set([`${this.alias}.${pk}`, `${this.alias}.${this.metadata.primaryColumns[0].propertyName}`]);
    // Each sort key is a column of hits (the primary key is already one).
    const sortColumns = orders.map(([sort], i) => (keySort.has(sort) ? pk : `__o${i}`));
    qb.select(`${this.alias}.${pk}`, pk);
    orders.forEach(([sort], i) => {
      if (sortColumns[i] !== pk) qb.addSelect(sort, sortColumns[i]);
    });
    qb.orderBy();
    const pageColumns = [...new Set([pk, ...sortColumns])];
    const direction = (o: (typeof orders)[number][1]) => (typeof o === 'string' ? o : `${o.order}${o.nulls ? ` ${o.nulls}` : ''}`);
    const orderOn = (alias: string) => orders.map(([, o], i) => `${alias}.${q(sortColumns[i])} ${direction(o)}`).join(', ');
    let paging = '';
    paging += this.limitClause();
    if (this.offsetValue !== undefined) paging += ' OFFSET :__offset';
    const hits = `hits AS MATERIALIZED (${qb.getQuery()})`;
    const page = `page AS MATERIALIZED (SELECT ${pageColumns.map((c) => `h.${q(c)} AS ${q(c)}`).join(', ')} FROM hits h ORDER BY ${orderOn('h')}${paging})`;
    const selections = this.selections.map(([selection, alias]) => `${selection} AS ${q(alias)}`);
    selections.push(`(SELECT COUNT(*) FROM hits) AS ${q(this.hitsTotal)}`);
    return (
      `${this.withClause([hits, page])}SELECT ${selections.join(', ')} FROM page p JOIN ${q(this.metadata.tableName)} ${this.alias} ` +
      `ON ${this.alias}.${q(pk)} = p.${q(pk)} ORDER BY ${orderOn('p')}`
    );
  }

  private boundParams(): Record<string, unknown> {
    const p: Record<string, unknown> = { ...this.params };
    if (this.limitValue !== undefined && !this.inlineLimit()) p.__limit = this.limitValue;
    if (this.offsetValue !== undefined) p.__offset = this.offsetValue;
    return p;
  }

  /** The statement text the rows are read with (built now if this shape is new). */
  statementText(): string {
    return this.statement('rows').text;
  }

  /**
   * The raw rows (column aliases as the query builder names them). After `rowsAsJson`, each column's value is
   * already parsed (an array or null) and the page was read as one value.
   */
  async getRawMany(): Promise<Array<Record<string, unknown>>> {
    if (!this.jsonRows || this.selected.length === 0) {
      const st = this.statement('rows');
      return runRead<Record<string, unknown>>(this.db, st.text, st.bind(this.boundParams()));
    }
    const grouped = await this.readGrouped();
    if (!grouped) return [];
    const rows = grouped.texts.map((t) => this.parseRow(t));
    if (this.inlineCount && rows.length) rows[0][this.inlineCountAlias!] = grouped.total;
    return rows;
  }

  /**
   * The page through its matches found once (for lists whose conditions are costly to run twice, as a count and as
   * a page): one statement materializes the matching rows' keys and sort keys (`hits`), takes this query's
   * limit/offset of them in its order (`page`), and answers the selections over the page's rows joined back by
   * primary key, in order, each row also carrying the number of matches as `totalAlias`. Selections may read
   * `page` (its key column is named as the entity's primary column). No rows: no total (an empty first page has
   * none; a later one may be past the end).
   */
  async readHits(totalAlias: string): Promise<Array<Record<string, unknown>>> {
    if (this.selections.length === 0) throw new Error('ListQuery.readHits: nothing is selected');
    this.hitsTotal = totalAlias;
    const st = this.statement('hits');
    return runRead<Record<string, unknown>>(this.db, st.text, st.bind(this.boundParams()));
  }

  /** Whether the page is read as one value (`rowsAsJson` with columns selected): `readGrouped` applies. */
  get grouped(): boolean {
    return this.jsonRows && this.selected.length > 0;
  }

  /** The page as one value (`rowsAsJson`), or null when it has no rows. */
  async readGrouped(): Promise<GroupedRows | null> {
    if (!this.grouped) throw new Error('ListQuery.readGrouped: the page is not read as one value (rowsAsJson)');
    const st = this.statement('grouped');
    const [one] = await runRead<Record<string, unknown>>(this.db, st.text, st.bind(this.boundParams()));
    const text = one?.[GROUPED_ROWS];
    if (text === null || text === undefined) return null;
    const source = String(text);
    const texts = source.split(TEXT_SEQUENCE_SEPARATOR);
    // JSON escapes every control character inside strings, so the separator only ever stands between rows.
    if (texts.length !== Number(one[GROUPED_COUNT])) throw new Error(`ListQuery: ${texts.length} row texts for ${String(one[GROUPED_COUNT])} rows`);
    return { source, texts, total: this.inlineCount ? one[this.inlineCountAlias!] : undefined };
  }

  /** One row text of `readGrouped` as the raw row (column alias -> parsed value). */
  parseRow(text: string): Record<string, unknown> {
    const aliases = this.selected;
    const parsed = JSON.parse(text) as unknown;
    if (aliases.length === 1) return { [aliases[0]]: parsed };
    const v = parsed as unknown[];
    const row: Record<string, unknown> = {};
    for (let j = 0; j < aliases.length; j++) row[aliases[j]] = v[j];
    return row;
  }

  /** COUNT(1) of the rows, or the `countWith` expression (no ordering, no paging). */
  async count(): Promise<number> {
    const st = this.statement('count');
    const [row] = await runRead<{ cnt: string | number }>(this.db, st.text, st.bind(this.params));
    return Number(row?.cnt ?? 0);
  }
}
