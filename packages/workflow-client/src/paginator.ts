/**
 * Paginators (`getPaginator` / `getIterator`; aws-sdk-php ResultPaginator, reference §4): an async iterable of the
 * pages (Results) of a pageable operation, driven by the model's paginators-1 entry (`input_token`, `output_token`,
 * `limit_key`, `result_key`, `more_results`). Each page's next-token map is built from the output token
 * expression(s) (JMESPath) and filtered of empty values, so a missing or empty token ends the walk; `more_results`
 * that evaluates falsy ends it too; and so does a token equal to the one just sent (PHP does this for GetLogEvents,
 * the JS SDK with stopOnSameToken; here always, so a server that repeats its token cannot loop us forever).
 * `each(cb)` is PHP's coroutine form and `search(expr)` flattens a JMESPath expression over all pages.
 * `resultIterator` is `getIterator`: the items under the (first) result key, across pages.
 */
import { search as jmes } from './jmespath';
import { UnexpectedValueError, type PaginatorConfig } from './api';
import type { CommandLike, Result } from './types';

/** What a paginator or waiter needs from the client (the WorkflowClient satisfies it). */
export interface OperationClient {
  getCommand(name: string, args?: Record<string, unknown>): CommandLike;
  executeAsync(command: CommandLike): Promise<Result>;
}

const asList = (v: string | string[] | null | undefined): string[] =>
  v === null || v === undefined ? [] : Array.isArray(v) ? v : [v];

/** PHP `(array) $value` for a search result: null → [], a list → its items, anything else → [value]. */
function toItems(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function sameToken(a: Record<string, unknown> | null, b: Record<string, unknown>): boolean {
  if (a === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

export class ResultPaginator implements AsyncIterable<Result> {
  /** A true private field: serialising or logging a paginator never reaches the client (and its credentials). */
  readonly #client: OperationClient;
  private readonly config: PaginatorConfig;

  constructor(
    client: OperationClient,
    private readonly operation: string,
    private readonly args: Record<string, unknown> = {},
    config: Partial<PaginatorConfig>,
  ) {
    this.#client = client;
    this.config = {
      input_token: config.input_token ?? null,
      output_token: config.output_token ?? null,
      limit_key: config.limit_key ?? null,
      result_key: config.result_key ?? null,
      more_results: config.more_results ?? null,
    };
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Result> {
    let token: Record<string, unknown> | null = null;
    for (;;) {
      const result = await this.#client.executeAsync(this.nextCommand(token));
      yield result;
      const next = this.nextToken(result);
      if (next === null || sameToken(token, next)) return;
      token = next;
    }
  }

  /**
   * Runs through every page, calling `handle(result)` on each; a returned promise is awaited before the next
   * request. Resolves with the last non-undefined value `handle` returned (PHP's coroutine value).
   */
  async each(handle: (result: Result) => unknown): Promise<unknown> {
    let last: unknown = undefined;
    for await (const result of this) {
      const ret = await handle(result);
      if (ret !== undefined && ret !== null) last = ret;
    }
    return last;
  }

  /** The values of `expression` on each page, as one flat sequence (lists are spread, null skipped). */
  search(expression: string): AsyncIterable<unknown> {
    const pages = this;
    return {
      async *[Symbol.asyncIterator]() {
        for await (const result of pages) {
          yield* toItems(jmes(result, expression));
        }
      },
    };
  }

  /** The token arguments for the page after `result`, or null when there is none. */
  nextToken(result: Result): Record<string, unknown> | null {
    const outputs = asList(this.config.output_token);
    if (outputs.length === 0) return null;
    if (this.config.more_results && !jmes(result, this.config.more_results)) return null;
    const inputs = asList(this.config.input_token);
    const token: Record<string, unknown> = {};
    outputs.forEach((expr, i) => {
      const name = inputs[i];
      if (name === undefined) return;
      const value = jmes(result, expr);
      // PHP array_filter: drop falsy values (null, '', 0, false, empty list)
      if (value && !(Array.isArray(value) && value.length === 0)) token[name] = value;
    });
    return Object.keys(token).length > 0 ? token : null;
  }

  private nextCommand(token: Record<string, unknown> | null): CommandLike {
    return this.#client.getCommand(this.operation, { ...this.args, ...(token ?? {}) });
  }
}

/**
 * `getIterator(name, args)`: the items under the paginator's result key (the first one when there are several),
 * across all pages; a single call when the operation has no tokens. Throws UnexpectedValueError (synchronously)
 * when the paginator has no result key.
 */
export function resultIterator(
  client: OperationClient,
  operation: string,
  args: Record<string, unknown>,
  config: Partial<PaginatorConfig>,
  serviceFullName = 'the service',
): AsyncIterable<unknown> {
  const keys = asList(config.result_key);
  if (keys.length === 0) {
    throw new UnexpectedValueError(`There are no resources to iterate for the ${operation} operation of ${serviceFullName}`);
  }
  const key = keys[0];
  if (asList(config.output_token).length > 0 && asList(config.input_token).length > 0) {
    return new ResultPaginator(client, operation, args, config).search(key);
  }
  return {
    async *[Symbol.asyncIterator]() {
      const result = await client.executeAsync(client.getCommand(operation, { ...args }));
      yield* toItems(jmes(result, key));
    },
  };
}
