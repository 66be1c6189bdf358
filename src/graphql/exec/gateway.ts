/**
 * The compiled executor plugged into Apollo Server as its executor, through Apollo 5's `gateway` interface (the
 * documented replacement of the removed `executor` option): the schema is announced to `onSchemaLoadOrUpdate`, and
 * `load()` answers the executor. Apollo keeps the whole request pipeline (HTTP, CSRF prevention, its documentStore
 * that parses and validates each query text once, every plugin hook, error formatting); only execution is ours.
 *
 * A query runs through its document's compiled plan (./compiled-query.ts), kept per parsed document: Apollo's
 * documentStore hands back the same DocumentNode for the same query text, so a plan lives exactly as long as
 * Apollo keeps the document. When the plan answers FALLBACK (any error, anything unexpected), graphql-js executes
 * the request from scratch, so a failing query runs at most twice and errors always come from graphql-js.
 * Mutations and anything the compiler leaves out (introspection, other directives) go to graphql-js directly.
 */
import type {
  GatewayExecutionResult,
  GatewayExecutor,
  GatewayGraphQLRequestContext,
  GatewayInterface,
  GatewayLoadResult,
  GatewaySchemaLoadOrUpdateCallback,
  GatewayUnsubscriber,
} from '@apollo/server-gateway-interface';
import { DocumentNode, execute, ExecutionResult, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { CompiledQuery, FALLBACK } from './compiled-query';

export interface CompiledGatewayOptions {
  /** Execute queries through compiled plans (default true); false: graphql-js' execute only. */
  compile?: boolean;
  /** Called once per execution: 'compiled' when the plan answered, 'graphql-js' otherwise (metrics, tests). */
  onExecute?(kind: 'compiled' | 'graphql-js'): void;
}

export class CompiledExecutorGateway implements GatewayInterface {
  /** Compiled plans per parsed document and operation name (null: the document is left to graphql-js). */
  private readonly plans = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();
  private readonly compile: boolean;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly opts: CompiledGatewayOptions = {},
  ) {
    this.compile = opts.compile !== false;
  }

  async load(): Promise<GatewayLoadResult> {
    return { executor: this.executor };
  }

  /** The schema never changes while the server runs: the listener hears the one load. */
  onSchemaLoadOrUpdate(callback: GatewaySchemaLoadOrUpdateCallback): GatewayUnsubscriber {
    callback({ apiSchema: this.schema, coreSupergraphSdl: '' });
    return () => undefined;
  }

  async stop(): Promise<void> {}

  private readonly executor: GatewayExecutor = async (rc: GatewayGraphQLRequestContext): Promise<GatewayExecutionResult> => {
    const variables = rc.request.variables ?? {};
    const operation = rc.operation;
    if (this.compile && operation?.operation === 'query') {
      const compiled = this.planFor(rc.document, operation, rc.request.operationName ?? '');
      if (compiled) {
        let answer = compiled.run(rc.context, variables);
        if (answer !== FALLBACK && 'then' in answer) answer = await answer;
        if (answer !== FALLBACK) {
          this.opts.onExecute?.('compiled');
          return answer;
        }
      }
    }
    this.opts.onExecute?.('graphql-js');
    return (await execute({
      schema: this.schema,
      document: rc.document,
      contextValue: rc.context,
      variableValues: variables,
      operationName: rc.request.operationName,
    })) as ExecutionResult;
  };

  private planFor(document: DocumentNode, operation: OperationDefinitionNode, name: string): CompiledQuery | null {
    let byName = this.plans.get(document);
    if (!byName) this.plans.set(document, (byName = new Map()));
    let compiled = byName.get(name);
    if (compiled === undefined) {
      compiled = CompiledQuery.compile(this.schema, document, operation);
      byName.set(name, compiled);
    }
    return compiled;
  }
}
