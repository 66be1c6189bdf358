/**
 * JMESPath for the workflow client: paginators (`output_token`, `more_results`, `result_key`, `search(expr)`) and
 * waiters (`path`, `pathAll`, `pathAny` acceptors) evaluate expressions on Results, as aws-sdk-php does through
 * `Result::search`. The engine is `@jmespath-community/jmespath` (typed, no dependencies, maintained; the original
 * `jmespath` package has had no release since 2022 and ships no types). Compiled expressions are cached, because a
 * waiter or paginator evaluates the same few expressions on every page or attempt.
 */
import type { TreeInterpreter as Interpreter, compile as Compile } from '@jmespath-community/jmespath' with {
  'resolution-mode': 'import',
};
import { InvalidArgumentError } from './errors';

// The package's typings are ESM-only while its `require` export is CommonJS: load it with require, type it from
// the ESM declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { TreeInterpreter, compile } = require('@jmespath-community/jmespath') as {
  TreeInterpreter: typeof Interpreter;
  compile: typeof Compile;
};

type Ast = ReturnType<typeof compile>;
type JsonValue = Parameters<typeof TreeInterpreter.search>[1];

const cache = new Map<string, Ast>();
const CACHE_LIMIT = 256;

/** Compiles (once) and checks an expression; a syntax error becomes an InvalidArgumentError naming the expression. */
export function compileExpression(expression: string): Ast {
  let ast = cache.get(expression);
  if (ast === undefined) {
    try {
      ast = compile(expression);
    } catch (err) {
      throw new InvalidArgumentError(`Invalid JMESPath expression "${expression}": ${(err as Error).message}`);
    }
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(expression, ast);
  }
  return ast;
}

/** Evaluates `expression` on `data` (a Result, or any JSON-like value). A missing path gives `null`. */
export function search(data: unknown, expression: string): unknown {
  return TreeInterpreter.search(compileExpression(expression), data as JsonValue);
}
