/**
 * The fast path for the common GraphQL request: a POSTed JSON query that Apollo would answer 200 with data
 * and no errors. Measured (bench/README.md): Apollo's request pipeline (hashing the query text, a dozen
 * awaited plugin hooks, header maps, content negotiation) cost more than the whole `viewer` operation, and
 * the `{ __typename }` floor was 0.22x a bare node:http server.
 *
 * Exactly what Apollo does on that path, and nothing Apollo would do differently:
 *  - only POST, `content-type: application/json`, an `accept` that makes Apollo answer
 *    `application/json; charset=utf-8`, a body `{ query, operationName?, variables? }` (no `extensions`,
 *    so no persisted queries), and a **query** operation (mutations always go through Apollo);
 *  - the document is parsed with the same token limit and validated with the same rules as Apollo
 *    (graphql-js' specified rules, NoIntrospection when introspection is off, graphql-armor's rules),
 *    once per query text (an LRU of 500 documents); the cost limit is checked per request (it depends on
 *    the variables), or once per document when there are none;
 *  - it runs with the request's context through the document's compiled plan (./exec/compiled-query.ts: the
 *    same resolvers, the same answer as graphql-js, without re-deriving per object what the document fixes);
 *    on any error or unexpected value there, graphql-js executes it from scratch as before; the metrics and
 *    the request log fields the observability plugin records are recorded the same way;
 *  - the body is `JSON.stringify({ data }) + "\n"`, byte for byte Apollo's.
 * Anything else (a parse or validation error, a cost over the limit, a bad token, variables that do not
 * coerce, any error in the result) returns `undefined`, and Apollo answers the request from the start,
 * as it always did. Only queries take this path, so running one again there changes nothing.
 */
import {
  DocumentNode,
  execute,
  ExecutionResult,
  getOperationAST,
  GraphQLSchema,
  Kind,
  OperationDefinitionNode,
  parse,
  separateOperations,
  specifiedRules,
  validate,
  GraphQLError,
  ValidationContext,
  ValidationRule,
} from 'graphql';
import type { RequestContext } from '../context';
import { CompiledQuery, FALLBACK } from './exec/compiled-query';
import type { Metrics } from '../observability/metrics';

interface Prepared {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** The document the cost is computed on (the selected operation when there are several). */
  costDocument: DocumentNode;
  /** Cost already checked (documents without variable definitions). */
  costChecked: boolean;
  /** The compiled plan; null when the document uses what the compiled executor leaves to graphql-js. */
  compiled: CompiledQuery | null;
}

/** Known query texts that do not validate or are not queries: skip straight to Apollo. */
const NOT_FAST = null;

type GraphqlContextLike = RequestContext & { graphql?: { operationName?: string; operationType?: string } };

export interface FastQueryPathOptions {
  schema: GraphQLSchema;
  validationRules: ValidationRule[];
  introspection: boolean;
  maxTokens: number;
  /** Throws when the operation is too costly (Apollo's complexity plugin then answers). */
  checkComplexity(document: DocumentNode, variables: Record<string, unknown>): void;
  metrics: Metrics;
  /** Execute through compiled plans (default true); false: graphql-js' execute only. */
  compile?: boolean;
}

const MAX_DOCUMENTS = 500;
/**
 * Only query texts up to this length are cached (and take the fast path): 500 cached documents stay within a few
 * MB, however large the bodies clients send (up to the 10 MB body limit). Dashboards' queries are a few KB.
 */
export const MAX_CACHED_QUERY_CHARS = 16 * 1024;

/** Apollo's NoIntrospection rule (introspection off): `__schema` and `__type` are refused. */
const noIntrospection: ValidationRule = (context: ValidationContext) => ({
  Field(node) {
    if (node.name.value === '__schema' || node.name.value === '__type') {
      context.reportError(new GraphQLError('GraphQL introspection is not allowed', { nodes: [node] }));
    }
  },
});

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Accept headers for which Apollo picks `application/json; charset=utf-8`. */
function acceptsJson(accept: string | string[] | undefined): boolean {
  if (accept === undefined || accept === '') return true;
  if (typeof accept !== 'string') return false;
  const a = accept.trim().toLowerCase();
  return a === 'application/json' || a === '*/*' || a === 'application/json, */*';
}

export class FastQueryPath {
  private readonly documents = new Map<string, Prepared | typeof NOT_FAST>();
  private readonly rules: ValidationRule[];

  constructor(private readonly opts: FastQueryPathOptions) {
    this.rules = [...specifiedRules, ...(opts.introspection ? [] : [noIntrospection]), ...opts.validationRules];
  }

  /** The response body, or undefined when Apollo must answer (see the header comment). */
  async tryExecute(
    headers: Record<string, string | string[] | undefined>,
    body: unknown,
    context: () => Promise<GraphqlContextLike>,
  ): Promise<string | undefined> {
    const started = process.hrtime.bigint();
    const type = headers['content-type'];
    if (typeof type !== 'string' || type.split(';')[0].trim().toLowerCase() !== 'application/json') return undefined;
    if (!acceptsJson(headers.accept) || !isPlainObject(body)) return undefined;
    const { query, operationName, variables } = body;
    if (typeof query !== 'string' || query === '' || 'extensions' in body) return undefined;
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
    if (variables !== undefined && variables !== null && !isPlainObject(variables)) return undefined;
    for (const k in body) if (k !== 'query' && k !== 'operationName' && k !== 'variables') return undefined;

    const prepared = this.prepare(query, operationName ?? undefined);
    if (!prepared) return undefined;
    const vars = (variables ?? {}) as Record<string, unknown>;
    if (!prepared.costChecked) {
      try {
        this.opts.checkComplexity(prepared.costDocument, vars);
      } catch {
        return undefined;
      }
      if (!prepared.operation.variableDefinitions?.length) prepared.costChecked = true;
    }

    let ctx: GraphqlContextLike;
    try {
      ctx = await context();
    } catch {
      return undefined;
    }
    let data: Record<string, unknown> | null | undefined;
    let compiled = prepared.compiled ? prepared.compiled.run(ctx, vars) : FALLBACK;
    if (compiled !== FALLBACK && 'then' in compiled) compiled = await compiled;
    if (compiled !== FALLBACK) {
      data = compiled.data;
    } else {
      const result = (await execute({
        schema: this.opts.schema,
        document: prepared.document,
        contextValue: ctx,
        variableValues: vars,
        operationName: operationName ?? undefined,
      })) as ExecutionResult;
      if (result.errors?.length) return undefined;
      data = result.data;
    }
    if (data == null) return undefined;

    // What the observability plugin records for an operation without errors.
    const name = prepared.operation.name?.value ?? null;
    if (ctx.graphql) {
      ctx.graphql.operationName = name ?? undefined;
      ctx.graphql.operationType = 'query';
    }
    const op = this.opts.metrics.operationLabel(name);
    this.opts.metrics.graphqlOperations.inc({ operation: op, type: 'query', outcome: 'success' });
    const out = JSON.stringify({ data }) + '\n';
    this.opts.metrics.graphqlDuration.observe({ operation: op, type: 'query' }, Number(process.hrtime.bigint() - started) / 1e9);
    return out;
  }

  private prepare(query: string, operationName: string | undefined): Prepared | null {
    if (query.length > MAX_CACHED_QUERY_CHARS || (operationName?.length ?? 0) > 1024) return NOT_FAST;
    const key = operationName === undefined ? query : `${operationName}\u0000${query}`;
    const hit = this.documents.get(key);
    if (hit !== undefined) {
      // LRU: most recently used last.
      this.documents.delete(key);
      this.documents.set(key, hit);
      return hit;
    }
    let prepared: Prepared | null = NOT_FAST;
    try {
      const document = parse(query, { maxTokens: this.opts.maxTokens });
      if (validate(this.opts.schema, document, this.rules).length === 0) {
        const operation = getOperationAST(document, operationName);
        if (operation && operation.operation === 'query') {
          const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
          const costDocument = operations > 1 && operationName ? separateOperations(document)[operationName] ?? document : document;
          const compiled = this.opts.compile === false ? null : CompiledQuery.compile(this.opts.schema, document, operation);
          prepared = { document, operation, costDocument, costChecked: false, compiled };
        }
      }
    } catch {
      prepared = NOT_FAST;
    }
    this.documents.set(key, prepared);
    if (this.documents.size > MAX_DOCUMENTS) this.documents.delete(this.documents.keys().next().value!);
    return prepared;
  }
}
