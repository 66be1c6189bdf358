/**
 * Keyset (cursor) pagination over a TypeORM query, Relay style: first/after, last/before.
 * Cursors are opaque (base64url JSON of the sort value and the id), stable under inserts, and
 * rejected with a clear error when tampered with. Works the same on SQLite and PostgreSQL.
 */
import { Driver, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { runRead } from '../../db/rows';
import { ListQuery } from './list-query';
import { ValidationError } from '../../errors/app-error';
import { REQUEST_CODES } from '../../errors/codes';
import { decodeColumnValue, decodeInt, POSITIVE_INT4 } from './decode';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 30;

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface SortSpec {
  /** Entity property the list is sorted by (the id breaks ties). */
  property: string;
  direction: 'ASC' | 'DESC';
}

export interface Page<T> {
  items: T[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  cursorOf(item: T): string;
  /** Computed on demand: lists only pay for COUNT(*) when totalCount is asked for. */
  totalCount(): Promise<number>;
  /** Page mode only: the number of the last page (GitHub's rel="last"). */
  lastPage?: () => Promise<number>;
  /**
   * Forward pages read as one value (ListQuery `rowsAsJson`): the text of exactly the items, in their order, as the
   * database gave it (every selected column of each row; the row read to see whether there is a next page is not
   * part of it). Equal texts are equal items: an answer made from the items (and from rows the caller compares
   * itself) can be kept with it and given again without building the items (src/rest/text-memo.ts `AnswerMemo`);
   * they are built from the text when `items` is first read. Read it again after `items` before keeping an answer
   * that was made through the request's loaders: it is then undefined if building the items met a related row the
   * loaders already held with other values (`PageQueryOptions.consistent`). Backward pages give none.
   */
  source?: string;
}

/** page/per_page paging (GitHub REST); validation errors name this resource. */
export interface OffsetArgs {
  page: number;
  perPage: number;
}

/**
 * COUNT(1) of what a query builder selects (no ordering, no paging). TypeORM's getCount() says
 * COUNT(DISTINCT id), which makes SQLite build a temporary B-tree.
 */
export async function countRows(qb: SelectQueryBuilder<any>): Promise<number> {
  const row = await qb.clone().select('COUNT(1)', 'cnt').orderBy().offset(undefined).limit(undefined).getRawOne<{ cnt: string | number }>();
  return Number(row?.cnt ?? 0);
}

/**
 * How a page is fetched when the default (`getMany()` of the page, a separate COUNT on demand) is not the
 * cheapest. Measured on the secret scanning dashboard (bench/README.md): one statement with the to-one
 * relations joined and the total as a scalar subquery, rows hydrated without TypeORM's entity transformer.
 */
export interface PageQueryOptions<T> {
  /** Count these rows instead of the page query's (the same set written so a covering index answers it). */
  countQuery?: SelectQueryBuilder<any> | ListQuery<any>;
  /** Compute the total in the page statement (an uncorrelated scalar subquery, run once); needs `hydrate`. */
  inlineCount?: boolean;
  /** Read the page with getRawMany() and build each item from its raw row (joined columns included). */
  hydrate?: (row: Record<string, unknown>) => T;
  /**
   * False once `hydrate` found that what the items lead to is not all in the page's text (e.g. a related row
   * the request's loaders already held with other values): the page then gives no `source`.
   */
  consistent?: () => boolean;
}

const TOTAL_COLUMN = '__total';

/** The SQL of a COUNT(1) over what `qb` selects (no ordering, no paging), with its parameters. */
function countSql(qb: SelectQueryBuilder<any>): { sql: string; params: ObjectLiteral } {
  const c = qb.clone().select('COUNT(1)').orderBy().offset(undefined).limit(undefined);
  return { sql: c.getQuery(), params: c.getParameters() };
}

/** A page's query: a query builder, or a list query whose statement text is built once per shape (list-query.ts). */
export type PageQuery<T extends ObjectLiteral> = SelectQueryBuilder<T> | ListQuery<T>;

function countOf(q: SelectQueryBuilder<any> | ListQuery<any>): Promise<number> {
  return q instanceof ListQuery ? q.count() : countRows(q);
}

/** The rows of a page as fetched: how many, and each one's item (built when first asked for). */
interface FetchedRows<T> {
  length: number;
  item(i: number): T;
}

function eagerRows<T>(items: T[]): FetchedRows<T> {
  return { length: items.length, item: (i) => items[i] };
}

/**
 * The page's items, in `order` (indexes into the fetched rows): built from the rows on first read of `items`
 * (for a page read as one value: parsed and hydrated then, so an answer reused from `source` never builds them).
 */
function withItems<T, P extends Omit<Page<T>, 'items' | 'source'>>(
  page: P,
  fetched: Fetched<T>,
  count: number,
  reverse: boolean,
  consistent: (() => boolean) | undefined,
): P & Pick<Page<T>, 'items' | 'source'> {
  let items: T[] | undefined;
  const { rows } = fetched;
  // The text of the `count` items only (forward pages): a prefix of the rows' text sequence (a slice shares its
  // characters). Backward pages present their rows reversed: they give no text.
  let source: string | undefined;
  if (fetched.source !== undefined && fetched.texts !== undefined && !reverse && count > 0) {
    if (count === fetched.texts.length) source = fetched.source;
    else {
      let end = count - 1; // separators
      for (let i = 0; i < count; i++) end += fetched.texts[i].length;
      source = fetched.source.slice(0, end);
    }
  }
  return Object.defineProperties(page, {
    items: {
      enumerable: true,
      get(): T[] {
        if (items === undefined) {
          items = new Array<T>(count);
          for (let i = 0; i < count; i++) items[reverse ? count - 1 - i : i] = rows.item(i);
        }
        return items;
      },
    },
    source: {
      enumerable: true,
      get: (): string | undefined => (source !== undefined && (consistent?.() ?? true) ? source : undefined),
    },
  }) as P & Pick<Page<T>, 'items' | 'source'>;
}

interface Fetched<T> {
  rows: FetchedRows<T>;
  /** Known when computed inline. */
  total?: number;
  /** A page read as one value: the text sequence and its rows' texts. */
  source?: string;
  texts?: string[];
}

/** Run the ordered, limited page query as the options say; `total` is known when it was computed inline. */
async function fetchPage<T extends ObjectLiteral>(qb: PageQuery<T>, count: SelectQueryBuilder<any> | ListQuery<any>, opts: PageQueryOptions<T>): Promise<Fetched<T>> {
  if (qb instanceof ListQuery) {
    const hydrate = opts.hydrate;
    if (!hydrate) throw new Error('fetchPage: a ListQuery page needs `hydrate`');
    if (opts.inlineCount) {
      if (!(count instanceof ListQuery)) throw new Error('fetchPage: the count of a ListQuery page must be a ListQuery');
      qb.addInlineCount(count, TOTAL_COLUMN);
    }
    if (qb.grouped) {
      const grouped = await qb.readGrouped();
      if (!grouped) return { rows: eagerRows([]), total: undefined };
      const { texts } = grouped;
      return {
        rows: { length: texts.length, item: (i) => hydrate(qb.parseRow(texts[i])) },
        total: opts.inlineCount ? Number(grouped.total) : undefined,
        source: grouped.source,
        texts,
      };
    }
    const raw = await qb.getRawMany();
    const total = opts.inlineCount && raw.length ? Number(raw[0][TOTAL_COLUMN]) : undefined;
    return { rows: eagerRows(raw.map(hydrate)), total };
  }
  if (count instanceof ListQuery) throw new Error('fetchPage: a query builder page needs a query builder count');
  if (!opts.hydrate) return { rows: eagerRows(await qb.getMany()) };
  if (opts.inlineCount) {
    const c = countSql(count);
    qb.addSelect(`(${c.sql})`, TOTAL_COLUMN).setParameters({ ...c.params, ...qb.getParameters() });
  }
  // Outside a transaction on PostgreSQL the page statement runs prepared (src/db/rows.ts runRead).
  const inTransaction = Boolean((qb as unknown as { queryRunner?: unknown }).queryRunner);
  const raw = inTransaction || qb.connection.options.type !== 'postgres'
    ? ((await qb.getRawMany()) as Array<Record<string, unknown>>)
    : await runRead<Record<string, unknown>>(qb.connection.manager, ...qb.getQueryAndParameters());
  const total = opts.inlineCount && raw.length ? Number(raw[0][TOTAL_COLUMN]) : undefined;
  return { rows: eagerRows(raw.map(opts.hydrate)), total };
}

type CursorValue = string | number | boolean | null;

export function encodeCursor(value: CursorValue, id: number | string): string {
  return Buffer.from(JSON.stringify([value, id]), 'utf8').toString('base64url');
}

/** Longer than any cursor this server writes (a 100-character name and an int4 id). */
const MAX_CURSOR_CHARS = 1024;

function invalidCursor(argName: string): ValidationError {
  return new ValidationError(`\`${argName}\` is not a valid cursor`, { domainCode: REQUEST_CODES.INVALID_CURSOR });
}

/** The [sort value, id] pair of a cursor, structurally (types are checked by decodeKeysetCursor). */
export function decodeCursor(cursor: string, argName: string): [unknown, unknown] {
  if (typeof cursor === 'string' && cursor.length <= MAX_CURSOR_CHARS && /^[A-Za-z0-9_-]*={0,2}$/.test(cursor)) {
    try {
      const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
      if (Array.isArray(parsed) && parsed.length === 2) return [parsed[0], parsed[1]];
    } catch {
      /* fall through */
    }
  }
  throw invalidCursor(argName);
}

/**
 * A cursor decoded against the columns it is compared with: the sort value must be a value of the sort
 * column's type and the id one of the id column's (int4 integers, ISO dates, bounded strings without NUL,
 * booleans), as TypeORM's column metadata declares them. Anything else is a 400 / BAD_USER_INPUT naming
 * `argName`, never a database error.
 */
export function decodeKeysetCursor(
  driver: Driver,
  sortCol: ColumnMetadata,
  idCol: ColumnMetadata,
  cursor: string,
  argName: string,
): { value: unknown; id: unknown } {
  const [rawValue, rawId] = decodeCursor(cursor, argName);
  const value = decodeColumnValue(driver, sortCol, rawValue);
  const id = decodeColumnValue(driver, idCol, rawId);
  if (!value || !id || id.value === null) throw invalidCursor(argName);
  return { value: value.value, id: id.value };
}

export function validatePageArgs(args: PageArgs, defaultSize = DEFAULT_PAGE_SIZE): { size: number; backward: boolean } {
  if (args.first != null && args.last != null) {
    throw new ValidationError('Passing both `first` and `last` to paginate a connection is not supported.', {
      domainCode: REQUEST_CODES.INVALID_PAGINATION,
    });
  }
  for (const name of ['first', 'last'] as const) {
    const v = args[name];
    if (v != null && (!Number.isInteger(v) || v < 0 || v > MAX_PAGE_SIZE)) {
      throw new ValidationError(`\`${name}\` must be an integer between 0 and ${MAX_PAGE_SIZE} (got ${v}).`, { domainCode: REQUEST_CODES.INVALID_PAGINATION });
    }
  }
  const backward = args.last != null || (args.first == null && args.before != null && args.after == null);
  const size = (backward ? args.last : args.first) ?? defaultSize;
  return { size, backward };
}

function sortValueOf(item: ObjectLiteral, property: string): CursorValue {
  const v = item[property];
  if (v instanceof Date) return v.toISOString();
  if (v === undefined) return null;
  return v as CursorValue;
}

/**
 * Apply keyset pagination to `qb` (whose main alias is `alias`) and run it.
 * `qb` must already carry the filters; this adds ordering, cursor bounds and the limit.
 */
export async function keysetPage<T extends ObjectLiteral>(
  qb: PageQuery<T>,
  args: PageArgs,
  sort: SortSpec,
  defaultSize = DEFAULT_PAGE_SIZE,
  opts: PageQueryOptions<T> = {},
): Promise<Page<T>> {
  const { size, backward } = validatePageArgs(args, defaultSize);
  const alias = qb.alias;
  const meta = metadataOf(qb);
  const sortCol = meta.findColumnWithPropertyName(sort.property);
  const idCol = meta.primaryColumns[0];
  if (!sortCol || !idCol) throw new Error(`keysetPage: unknown sort property ${sort.property}`);
  const driver = qb instanceof ListQuery ? qb.driver : qb.connection.driver;
  const col = `${alias}.${sortCol.databaseName}`;
  const idc = `${alias}.${idCol.databaseName}`;
  const countQb = opts.countQuery ?? qb.clone();

  const bound = (cursor: string, argName: string, side: 'after' | 'before', n: number) => {
    const { value, id } = decodeKeysetCursor(driver, sortCol, idCol, cursor, argName);
    const v = driver.preparePersistentValue(value, sortCol);
    // "after" in a DESC list means smaller values.
    const greater = (side === 'after') === (sort.direction === 'ASC');
    const op = greater ? '>' : '<';
    qb.andWhere(`(${col} ${op} :kv${n} OR (${col} = :kv${n} AND ${idc} ${op} :kid${n}))`, {
      [`kv${n}`]: v,
      [`kid${n}`]: id,
    });
  };
  if (args.after) bound(args.after, 'after', 'after', 1);
  if (args.before) bound(args.before, 'before', 'before', 2);

  const dir = backward ? (sort.direction === 'ASC' ? 'DESC' : 'ASC') : sort.direction;
  if (qb instanceof ListQuery) qb.orderBy(col, dir).addOrderBy(idc, dir).limit(size + 1);
  else qb.orderBy(col, dir).addOrderBy(idc, dir).take(undefined).limit(size + 1);
  const fetched = await fetchPage(qb, countQb, opts);
  const more = fetched.rows.length > size;

  let counted: Promise<number> | undefined = fetched.total === undefined ? undefined : Promise.resolve(fetched.total);
  return withItems<T, Omit<Page<T>, 'items' | 'source'>>(
    {
      hasNextPage: backward ? Boolean(args.before) : more,
      hasPreviousPage: backward ? more : Boolean(args.after),
      cursorOf: (item: T) => encodeCursor(sortValueOf(item, sort.property), item[idCol.propertyName]),
      totalCount: () => (counted ??= countOf(countQb)),
    },
    fetched,
    more ? size : fetched.rows.length,
    backward,
    opts.consistent,
  );
}

function metadataOf(qb: PageQuery<any>) {
  return qb instanceof ListQuery ? qb.metadata : qb.expressionMap.mainAlias!.metadata;
}

/**
 * page/per_page paging over the same order (sort column, then id). `totalCount` may be given when it is
 * already known (e.g. a stored counter); otherwise it is counted on demand.
 */
export async function offsetPage<T extends ObjectLiteral>(
  qb: PageQuery<T>,
  args: OffsetArgs,
  sort: SortSpec,
  opts: { resource: string; totalCount?: () => Promise<number> } & PageQueryOptions<T>,
): Promise<Page<T>> {
  // Field names in the domain's spelling; each transport renders its own (REST: page, per_page).
  const bad = (field: string, message: string) =>
    new ValidationError(message, { namesFields: true, fieldErrors: [{ resource: opts.resource, field, code: 'invalid', message }] });
  if (decodeInt(args.page, POSITIVE_INT4) === undefined) throw bad('page', '{{page}} must be a positive integer');
  if (!Number.isInteger(args.perPage) || args.perPage < 1 || args.perPage > MAX_PAGE_SIZE) {
    throw bad('perPage', `{{perPage}} must be between 1 and ${MAX_PAGE_SIZE}`);
  }
  const meta = metadataOf(qb);
  const sortCol = meta.findColumnWithPropertyName(sort.property);
  const idCol = meta.primaryColumns[0];
  if (!sortCol || !idCol) throw new Error(`offsetPage: unknown sort property ${sort.property}`);
  const countQb = opts.countQuery ?? qb.clone();
  let counted: Promise<number> | undefined;
  // (not chained: the two query types' methods differ in their return types)
  qb.orderBy(`${qb.alias}.${sortCol.databaseName}`, sort.direction);
  qb.addOrderBy(`${qb.alias}.${idCol.databaseName}`, sort.direction);
  qb.offset((args.page - 1) * args.perPage);
  qb.limit(args.perPage + 1);
  const fetched = await fetchPage(qb, countQb, opts.totalCount ? { ...opts, inlineCount: false } : opts);
  if (fetched.total !== undefined) counted = Promise.resolve(fetched.total);
  const totalCount = opts.totalCount ?? (() => (counted ??= countOf(countQb)));
  const more = fetched.rows.length > args.perPage;
  return withItems<T, Omit<Page<T>, 'items' | 'source'>>(
    {
      hasNextPage: more,
      hasPreviousPage: args.page > 1,
      cursorOf: (item: T) => encodeCursor(sortValueOf(item, sort.property), item[idCol.propertyName]),
      totalCount,
      lastPage: async () => Math.max(1, Math.ceil((await totalCount()) / args.perPage)),
    },
    fetched,
    more ? args.perPage : fetched.rows.length,
    false,
    opts.consistent,
  );
}
