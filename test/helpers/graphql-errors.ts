/**
 * An ExecutionResult as a client would see it (data, and each error's message, path and extensions.code), as JSON.
 */
import type { ExecutionResult } from 'graphql';
import { toAppError } from '../../src/errors/app-error';

export function formatForTest(result: ExecutionResult): string {
  return JSON.stringify({
    data: result.data,
    ...(result.errors
      ? {
          errors: result.errors.map((e) => ({
            message: e.message,
            path: e.path,
            code: e.extensions?.code ?? (e.originalError ? toAppError(e.originalError)?.code : undefined),
            original: e.originalError?.constructor.name,
          })),
        }
      : {}),
  });
}
