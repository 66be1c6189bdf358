/**
 * Client-side input validation from the model (the `validate` option; aws-sdk-php src/Api/Validator.php, reference
 * §1c): structures must be objects holding their `required` members, lists arrays (element count range-checked),
 * maps objects, blobs string/number/bytes/stream/stringable, booleans booleans, numbers numeric (value
 * range-checked), strings stringable (UTF-8 byte length range-checked, `pattern` when enabled). Every problem is
 * collected and ONE InvalidArgumentError reports them all, with PHP's wording:
 * `Found N error(s) while validating the input provided for the Op operation:\n[path] message`.
 *
 * As in PHP, a `min` or `max` of 0 is not checked, unknown keys (and the reserved `@http`, `@retries`, `@context`,
 * `@waiter`) are ignored, and a member set to null or undefined counts as absent (PHP's `isset`). Unlike PHP, values
 * of shapes with the `sensitive` trait are never echoed in a pattern error.
 */
import { InvalidArgumentError } from './errors';
import type { ResolvedShape, Service } from './api';
import type { Middleware } from './types';

export interface ValidationConstraints {
  required: boolean;
  min: boolean;
  max: boolean;
  pattern: boolean;
}

/** `validate: true` (reference §1): required and min only. */
export const DEFAULT_CONSTRAINTS: ValidationConstraints = { required: true, min: true, max: false, pattern: false };

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** An object with its own `toString` (PHP's `__toString`), not Object.prototype's. */
const isStringable = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && typeof (v as { toString?: unknown }).toString === 'function' &&
  (v as { toString: unknown }).toString !== Object.prototype.toString && !Array.isArray(v);

/** PHP's Aws\describe_type (var_dump style) in JavaScript terms: `string(3) "abc"`, `int(5)`, `array(2)`, ... */
export function describeType(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return `string(${Buffer.byteLength(value, 'utf8')}) "${value}"`;
  if (typeof value === 'number') return Number.isInteger(value) ? `int(${value})` : `float(${value})`;
  if (typeof value === 'bigint') return `int(${value})`;
  if (typeof value === 'boolean') return `bool(${value})`;
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === 'function') return 'object(Closure)';
  if (typeof value === 'symbol') return 'symbol';
  const ctor = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
  return `object(${ctor || 'Object'})`;
}

/** Like describeType, but never prints the value itself (for sensitive shapes). */
function describeTypeRedacted(value: unknown): string {
  if (typeof value === 'string') return `string(${Buffer.byteLength(value, 'utf8')})`;
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return describeType(value);
}

const regexCache = new Map<string, RegExp>();
function compilePattern(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (!re) {
    // Model patterns are PCRE; `\p{...}` needs the `u` flag in JavaScript, and a few PCRE identity escapes are
    // rejected by it, so fall back to a non-unicode regex for those.
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = new RegExp(pattern);
    }
    regexCache.set(pattern, re);
  }
  return re;
}

class Validation {
  readonly errors: string[] = [];
  private readonly path: (string | number)[] = [];

  constructor(
    private readonly service: Service,
    private readonly constraints: ValidationConstraints,
  ) {}

  dispatch(shape: ResolvedShape, value: unknown): void {
    switch (shape.type) {
      case 'structure':
        return this.checkStructure(shape, value);
      case 'list':
        return this.checkList(shape, value);
      case 'map':
        return this.checkMap(shape, value);
      case 'blob':
        return this.checkBlob(value);
      case 'boolean':
        return this.checkBoolean(value);
      case 'integer':
      case 'long':
      case 'float':
      case 'double':
        return this.checkNumeric(shape, value);
      case 'string':
      case 'byte':
      case 'char':
        return this.checkString(shape, value);
      default:
        // timestamps are not checked (PHP neither)
        return;
    }
  }

  private checkStructure(shape: ResolvedShape, value: unknown): void {
    if (!this.checkAssociative(value)) return;
    const members = shape.members ?? {};
    if (this.constraints.required && shape.required) {
      for (const req of shape.required) {
        if (value[req] === undefined || value[req] === null) {
          this.withPath(req, () => this.addError('is missing and is a required parameter'));
        }
      }
    }
    for (const [name, v] of Object.entries(value)) {
      if (name.startsWith('@') || v === undefined || v === null) continue;
      if (!Object.prototype.hasOwnProperty.call(members, name)) continue;
      this.withPath(name, () => this.dispatch(this.service.resolveShape(members[name]), v));
    }
  }

  private checkList(shape: ResolvedShape, value: unknown): void {
    if (!Array.isArray(value)) {
      this.addError(`must be an array. Found ${describeType(value)}`);
      return;
    }
    this.validateRange(shape, value.length, 'list element count');
    if (!shape.member) return;
    const items = this.service.resolveShape(shape.member);
    value.forEach((v, i) => this.withPath(i, () => this.dispatch(items, v)));
  }

  private checkMap(shape: ResolvedShape, value: unknown): void {
    if (!this.checkAssociative(value)) return;
    if (!shape.value) return;
    const values = this.service.resolveShape(shape.value);
    for (const [key, v] of Object.entries(value)) {
      this.withPath(key, () => this.dispatch(values, v));
    }
  }

  private checkBlob(value: unknown): void {
    const ok =
      typeof value === 'string' ||
      typeof value === 'number' ||
      value instanceof Uint8Array ||
      value instanceof ArrayBuffer ||
      (typeof value === 'object' && value !== null && typeof (value as { pipe?: unknown }).pipe === 'function') ||
      isStringable(value);
    if (!ok) {
      this.addError(
        'must be a Buffer, a Uint8Array, a readable stream, or something that can be cast to a string. Found ' +
          describeType(value),
      );
    }
  }

  private checkNumeric(shape: ResolvedShape, value: unknown): void {
    // PHP is_numeric: numbers and numeric strings.
    const numeric =
      (typeof value === 'number' && Number.isFinite(value)) ||
      typeof value === 'bigint' ||
      (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)));
    if (!numeric) {
      this.addError(`must be numeric. Found ${describeType(value)}`);
      return;
    }
    this.validateRange(shape, Number(value), 'numeric value');
  }

  private checkBoolean(value: unknown): void {
    if (typeof value !== 'boolean') this.addError(`must be a boolean. Found ${describeType(value)}`);
  }

  private checkString(shape: ResolvedShape, value: unknown): void {
    const canString = typeof value === 'string' || typeof value === 'number' || isStringable(value);
    if (!canString) {
      this.addError(
        `must be a string or an object that implements toString(). Found ${
          shape.sensitive ? describeTypeRedacted(value) : describeType(value)
        }`,
      );
      return;
    }
    const str = String(value);
    this.validateRange(shape, Buffer.byteLength(str, 'utf8'), 'string length');
    if (this.constraints.pattern && shape.pattern) {
      if (!compilePattern(shape.pattern).test(str)) {
        const shown = shape.sensitive ? '***SENSITIVE***' : str;
        this.addError(`Pattern /${shape.pattern}/ failed to match '${shown}'`);
      }
    }
  }

  private validateRange(shape: ResolvedShape, length: number, descriptor: string): void {
    if (this.constraints.min && shape.min && length < shape.min) {
      this.addError(`expected ${descriptor} to be >= ${shape.min}, but found ${descriptor} of ${length}`);
    }
    if (this.constraints.max && shape.max && length > shape.max) {
      this.addError(`expected ${descriptor} to be <= ${shape.max}, but found ${descriptor} of ${length}`);
    }
  }

  private checkAssociative(value: unknown): value is Record<string, unknown> {
    if (!isPlainObject(value)) {
      this.addError(`must be an associative array. Found ${describeType(value)}`);
      return false;
    }
    return true;
  }

  private withPath(segment: string | number, fn: () => void): void {
    this.path.push(segment);
    try {
      fn();
    } finally {
      this.path.pop();
    }
  }

  private addError(message: string): void {
    this.errors.push(`${this.path.map((s) => `[${s}]`).join('')} ${message}`);
  }
}

/**
 * Validates `input` against the operation's input shape; throws ONE InvalidArgumentError listing every problem.
 * Throws InvalidArgumentError `Unknown operation: X` for an operation the model lacks.
 */
export function validateInput(
  service: Service,
  opName: string,
  input: Record<string, unknown>,
  constraints: ValidationConstraints = DEFAULT_CONSTRAINTS,
): void {
  const shape = service.getInputShape(opName);
  const run = new Validation(service, constraints);
  run.dispatch(shape, input);
  const n = run.errors.length;
  if (n > 0) {
    throw new InvalidArgumentError(
      `Found ${n} error${n > 1 ? 's' : ''} while validating the input provided for the ${opName} operation:\n` +
        run.errors.join('\n'),
    );
  }
}

/**
 * The `validate` option as constraints: `true` → required+min, `false` → null (off), an object/array → only the
 * listed constraints (PHP: `$constraints + all-false`).
 */
export function constraintsFromOption(option: unknown): ValidationConstraints | null {
  if (option === false) return null;
  if (option === true || option === undefined || option === null) return { ...DEFAULT_CONSTRAINTS };
  if (Array.isArray(option)) {
    const set = new Set(option.map(String));
    return { required: set.has('required'), min: set.has('min'), max: set.has('max'), pattern: set.has('pattern') };
  }
  if (typeof option === 'object') {
    const o = option as Partial<Record<keyof ValidationConstraints, unknown>>;
    if (Object.keys(o).length === 0) return { ...DEFAULT_CONSTRAINTS };
    return { required: o.required === true, min: o.min === true, max: o.max === true, pattern: o.pattern === true };
  }
  throw new InvalidArgumentError('The "validate" option must be a boolean, or an object of constraints.');
}

/**
 * The `validation` middleware of the validate step (PHP Middleware::validation): validates each command's input
 * before it is built; an invalid command is rejected (InvalidArgumentError) and never reaches the next handler.
 */
export function validationMiddleware(service: Service, constraints: ValidationConstraints = DEFAULT_CONSTRAINTS): Middleware {
  return (next) => (command, request) => {
    try {
      validateInput(service, command.name, command.args, constraints);
    } catch (err) {
      return Promise.reject(err);
    }
    return next(command, request);
  };
}
