/**
 * Apollo Server 5 for the one graph, the only way into GraphQL: every request passes Apollo's pipeline and every
 * plugin. Documents are parsed and validated once per query text (Apollo's documentStore); execution is the
 * compiled executor plugged in through Apollo's gateway interface (./exec/gateway.ts). Cache-control plugin off
 * (no response caching is used; it costs 2.2x on lists), inline tracing off (not a federated subgraph), landing
 * page off (the offline GraphiQL is served by our own route), no global type-graphql middleware. Operation limits
 * come from maintained libraries:
 *  - graphql-armor: depth, aliases, directives (validation rules); graphql-js' parser: tokens,
 *  - graphql-query-complexity: cost, counting list sizes (`first`/`last`), the way GitHub's node limit does,
 *  - Apollo itself: batched HTTP operations are refused (allowBatchedHttpRequests: false).
 */
import { ApolloServer, ApolloServerPlugin, BaseContext, HeaderMap } from '@apollo/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { DocumentNode, GraphQLError, GraphQLSchema, Kind, OperationDefinitionNode, separateOperations } from 'graphql';
import { CompiledExecutorGateway, CompiledGatewayOptions } from './exec/gateway';
import { ComplexityEstimatorArgs, fieldExtensionsEstimator, getComplexity } from 'graphql-query-complexity';
import type { Logger } from 'pino';
import type { RequestContext } from '../context';
import { toAppError } from '../errors/app-error';
import { wellFormedJson } from '../services/common/decode';
import type { Metrics } from '../observability/metrics';
import { makeFormatError } from './errors';
import { SingleResultMediaTypes } from './media-type';

export const LIMITS = {
  maxDepth: 12,
  maxAliases: 30,
  maxTokens: 5000,
  maxDirectives: 50,
  /** Cost: each field 1, a list field multiplies its selection by `first`/`last` (default page size 30). */
  maxCost: 25_000,
};

export interface GraphqlRequestInfo {
  operationName?: string;
  operationType?: string;
}

export type GraphqlContext = RequestContext & { graphql?: GraphqlRequestInfo };

/** Cost of a field: 1 + its selection, times the page size for connection/list fields with first/last. */
function listAwareEstimator(options: ComplexityEstimatorArgs): number | void {
  const args = options.args ?? {};
  const size = typeof args.first === 'number' ? args.first : typeof args.last === 'number' ? args.last : undefined;
  if (size !== undefined) return 1 + options.childComplexity * Math.max(1, size);
  const ids = args.ids;
  if (Array.isArray(ids)) return 1 + options.childComplexity * Math.max(1, ids.length);
  // Connections without explicit first/last return a default page of 30.
  if (/Connection!?$/.test(options.field.type.toString())) {
    return 1 + options.childComplexity * 30;
  }
  return 1 + options.childComplexity;
}

/** The query cost of `query` with `variables`; throws the client-facing GraphQLError (400) when too high or uncoercible. */
function checkComplexity(schema: GraphQLSchema, query: DocumentNode, variables: Record<string, unknown>): void {
  let cost: number;
  try {
    cost = getComplexity({
      schema,
      query,
      variables,
      estimators: [fieldExtensionsEstimator(), listAwareEstimator],
    });
  } catch (e) {
    // graphql-query-complexity coerces the variables itself and throws graphql-js' coercion error
    // (no extensions.code): that is the client's bad input, not a server fault.
    if (e instanceof GraphQLError) {
      throw new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
    }
    throw e;
  }
  if (cost > LIMITS.maxCost) {
    throw new GraphQLError(
      `Query cost ${cost} exceeds the maximum of ${LIMITS.maxCost}. Ask for fewer items per page (first/last) or fewer nested lists.`,
      { extensions: { code: 'QUERY_TOO_COMPLEX', cost, maxCost: LIMITS.maxCost, http: { status: 400 } } },
    );
  }
}

/**
 * This server's own request hooks, as one plugin (each plugin costs Apollo a promise per hook and request):
 *  - subscriptions need a streaming transport this server does not offer; over HTTP they are the client's
 *    mistake (400 BAD_REQUEST), not graphql-js' "Schema is not configured to execute subscription operation";
 *  - the cost limit, checked once the operation is resolved; an operation without variable definitions has one
 *    cost, so it is checked once per parsed document (Apollo's documentStore keeps one document per query text);
 *  - metrics and the request log's operation fields; unexpected errors logged with the request id;
 *  - the answer's media type, negotiated once per Accept value (./media-type.ts) instead of once per request.
 */
function gatewayPlugin(schema: GraphQLSchema, metrics: Metrics, log: Logger): ApolloServerPlugin<GraphqlContext> {
  const mediaTypes = new SingleResultMediaTypes();
  const costChecked = new WeakMap<DocumentNode, Set<string>>();
  const checkCost = (document: DocumentNode, operation: OperationDefinitionNode | undefined, operationName: string | undefined, variables: Record<string, unknown>) => {
    const constant = !operation?.variableDefinitions?.length;
    const name = operationName ?? '';
    if (constant && costChecked.get(document)?.has(name)) return;
    // Only a document with several operations needs splitting (the common single-operation case skips the walk).
    const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
    const query = operations > 1 && operationName ? separateOperations(document)[operationName] ?? document : document;
    checkComplexity(schema, query, variables);
    if (constant) {
      let names = costChecked.get(document);
      if (!names) costChecked.set(document, (names = new Set()));
      names.add(name);
    }
  };
  return {
    async requestDidStart({ contextValue, request: httpRequest }) {
      const started = process.hrtime.bigint();
      // A GET's variables come from the query string, past the JSON body parser that makes POST variables well
      // formed: decode them the same way (lone surrogates -> U+FFFD), so GET and POST answer alike.
      if (httpRequest.http?.method === 'GET' && httpRequest.variables) httpRequest.variables = wellFormedJson(httpRequest.variables) as Record<string, unknown>;
      let op = 'anonymous';
      let type = 'unknown';
      return {
        async didResolveOperation({ request, document, operationName, operation }) {
          op = metrics.operationLabel(operationName);
          type = operation?.operation ?? 'unknown';
          // Mutate the holder created with the context: Apollo may shallow-clone contextValue.
          if (contextValue.graphql) {
            contextValue.graphql.operationName = operationName ?? undefined;
            contextValue.graphql.operationType = type;
          }
          if (operation?.operation === 'subscription') {
            throw new GraphQLError('Subscriptions are not supported over HTTP: send a query or a mutation.', {
              extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
            });
          }
          checkCost(document, operation, request.operationName, request.variables ?? {});
        },
        async didEncounterErrors({ errors }) {
          for (const e of errors) {
            const original = e.originalError ?? undefined;
            if (original && !(original instanceof GraphQLError) && !toAppError(original)) {
              (contextValue?.log ?? log).error({ err: original, path: e.path }, 'unexpected error in GraphQL operation');
            }
          }
        },
        async willSendResponse({ response }) {
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          const body = response.body;
          const hasErrors = body.kind === 'single' ? Boolean(body.singleResult.errors?.length) : false;
          metrics.graphqlOperations.inc({ operation: op, type, outcome: hasErrors ? 'error' : 'success' });
          metrics.graphqlDuration.observe({ operation: op, type }, seconds);
          if (body.kind === 'single' && !response.http.headers.has('content-type')) {
            const mediaType = mediaTypes.for(httpRequest.http?.headers.get('accept'));
            if (mediaType) response.http.headers.set('content-type', mediaType);
          }
        },
      };
    },
  };
}

export function createApollo(opts: {
  schema: GraphQLSchema;
  metrics: Metrics;
  log: Logger;
  introspection: boolean;
  /** More plugins (after ours): they see every request, as ours do. */
  plugins?: ApolloServerPlugin<GraphqlContext>[];
  executor?: CompiledGatewayOptions;
}): ApolloServer<GraphqlContext> {
  const armor = new ApolloArmor({
    maxDepth: { n: LIMITS.maxDepth, ignoreIntrospection: true, flattenFragments: true, exposeLimits: true },
    maxAliases: { n: LIMITS.maxAliases, exposeLimits: true },
    // Token limit: graphql-js' own parser option (parseOptions below) answers 400 GRAPHQL_PARSE_FAILED;
    // armor's version throws from a plugin hook, which Apollo turns into a 500.
    maxTokens: { enabled: false },
    maxDirectives: { n: LIMITS.maxDirectives, exposeLimits: true },
    costLimit: { enabled: false },
    // Field suggestions stay on: the schema is public (introspection feeds the playground).
    blockFieldSuggestion: { enabled: false },
  });
  const protection = armor.protect();
  return new ApolloServer<GraphqlContext>({
    gateway: new CompiledExecutorGateway(opts.schema, {
      ...opts.executor,
      onExecute: (executor) => opts.metrics.graphqlExecutions.inc({ executor }),
    }),
    introspection: opts.introspection,
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    parseOptions: { maxTokens: LIMITS.maxTokens },
    csrfPrevention: true,
    // The app's own SIGTERM/SIGINT handling stops Apollo after in-flight requests finished.
    stopOnTerminationSignals: false,
    formatError: makeFormatError(opts.log),
    // Compact JSON: Apollo's default appends a newline, which makes V8 copy every answer once more.
    stringifyResult: (value) => JSON.stringify(value),
    // graphql-armor's limits are validation rules: they run once per query text, with the rest of validation.
    validationRules: [...protection.validationRules],
    plugins: [
      ...(protection.plugins as ApolloServerPlugin<BaseContext>[]),
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginLandingPageDisabled(),
      gatewayPlugin(opts.schema, opts.metrics, opts.log),
      ...(opts.plugins ?? []),
    ] as ApolloServerPlugin<GraphqlContext>[],
  });
}

/**
 * The Fastify route handler for Apollo (what @as-integrations/fastify does, minus one thing): the query
 * string is taken from the request target alone. The integration parses `new URL(url, protocol://hostname)`,
 * which throws (a 500) for a Host header such as `[::1` or an empty one, and no URL is ever built from Host.
 */
export function fastifyGraphqlHandler<C extends BaseContext>(
  apollo: ApolloServer<C>,
  options: { context: (req: FastifyRequest, reply: FastifyReply) => Promise<C> },
) {
  apollo.assertStarted('fastifyGraphqlHandler()');
  return async function graphqlHandler(req: FastifyRequest, reply: FastifyReply) {
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const accept = headers.get('accept');
    if (accept !== undefined) headers.set('accept', githubMediaTypesAsJson(accept));
    const q = req.url.indexOf('?');
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method.toUpperCase(), headers, body: req.body, search: q < 0 ? '' : req.url.slice(q) },
      context: () => options.context(req, reply),
    });
    for (const [key, value] of response.headers) void reply.header(key, value);
    void reply.code(response.status ?? 200);
    if (response.body.kind === 'complete') return response.body.string;
    return reply.send(Readable.from(response.body.asyncIterator));
  };
}

/** GitHub's JSON media types (`application/vnd.github+json`, `application/vnd.github.v3+json`, any parameters). */
const GITHUB_JSON = /^application\/vnd\.github(?:\.v3)?\+json$/i;

/**
 * GitHub's GraphQL clients (Octokit) send `accept: application/vnd.github.v3+json`, which GitHub's endpoint answers
 * as JSON: those media ranges are read as `application/json` (their parameters and q-values kept), so Apollo's
 * content negotiation answers `application/json` instead of 406.
 */
export function githubMediaTypesAsJson(accept: string): string {
  if (!/vnd\.github/i.test(accept)) return accept;
  return accept
    .split(',')
    .map((range) => {
      const [type, ...params] = range.split(';');
      return GITHUB_JSON.test(type.trim()) ? ['application/json', ...params].join(';') : range;
    })
    .join(',');
}
