/**
 * AWS JSON request members, declared once: the same JSON schema documents a row's body (OpenAPI, the fuzz test)
 * and decodes it. Decoding follows the service model's rules the way AWS answers them: members the operation
 * does not know are ignored; a missing required member, a value of the wrong JSON type, a string out of its
 * length range, a number out of its range or a value outside an enum is a ValidationException listing every
 * problem ("2 validation errors detected: Value null at 'name' failed to satisfy constraint: Member must not be
 * null; …"), the values quoted and cut (never megabytes echoed back).
 */
import { quoteInput, ValidationError } from '../../errors/app-error';

export interface MemberSchema {
  type: 'string' | 'integer' | 'number' | 'boolean';
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: readonly string[];
  description?: string;
}

export interface BodySchema {
  type: 'object';
  required?: readonly string[];
  /** One of these member sets must be given (documentation; the service checks it). */
  anyOf?: Array<{ required: string[] }>;
  properties: Record<string, MemberSchema>;
}

export function bodySchema(properties: Record<string, MemberSchema>, required: string[] = []): BodySchema {
  return { type: 'object', ...(required.length ? { required } : {}), properties };
}

/** A value as AWS quotes it in a message: strings as they are (capped by quoteInput), other JSON by their kind. */
const shown = (v: unknown) =>
  v === null ? 'null' : typeof v === 'string' ? quoteInput(v) : Array.isArray(v) ? 'of type array' : typeof v === 'object' ? 'of type object' : quoteInput(String(v));

/** The members of `body` the schema declares, each of its declared type (absent ones undefined). */
export function decodeBody<T extends Record<string, unknown>>(body: unknown, schema: BodySchema): Partial<T> {
  const src = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, m] of Object.entries(schema.properties)) {
    const v = Object.prototype.hasOwnProperty.call(src, name) ? src[name] : undefined;
    if (v === undefined || v === null) {
      if (schema.required?.includes(name)) problems.push(`Value null at '${name}' failed to satisfy constraint: Member must not be null`);
      continue;
    }
    if (m.type === 'string') {
      if (typeof v !== 'string') {
        problems.push(`Value ${shown(v)} at '${name}' failed to satisfy constraint: Member must be a string`);
        continue;
      }
      if (v.includes('\u0000')) {
        problems.push(`Value at '${name}' failed to satisfy constraint: Member must not contain the NUL character`);
        continue;
      }
      if (m.minLength !== undefined && v.length < m.minLength) {
        problems.push(`Value ${shown(v)} at '${name}' failed to satisfy constraint: Member must have length greater than or equal to ${m.minLength}`);
        continue;
      }
      if (m.maxLength !== undefined && v.length > m.maxLength) {
        problems.push(`Value at '${name}' failed to satisfy constraint: Member must have length less than or equal to ${m.maxLength}`);
        continue;
      }
      if (m.enum && !m.enum.includes(v)) {
        problems.push(`Value ${shown(v)} at '${name}' failed to satisfy constraint: Member must satisfy enum value set: [${m.enum.join(', ')}]`);
        continue;
      }
    } else if (m.type === 'integer' || m.type === 'number') {
      if (typeof v !== 'number' || !Number.isFinite(v) || (m.type === 'integer' && !Number.isInteger(v))) {
        problems.push(`Value ${shown(v)} at '${name}' failed to satisfy constraint: Member must be ${m.type === 'integer' ? 'an integer' : 'a number'}`);
        continue;
      }
      if (m.minimum !== undefined && v < m.minimum) {
        problems.push(`Value '${v}' at '${name}' failed to satisfy constraint: Member must have value greater than or equal to ${m.minimum}`);
        continue;
      }
      if (m.maximum !== undefined && v > m.maximum) {
        problems.push(`Value '${v}' at '${name}' failed to satisfy constraint: Member must have value less than or equal to ${m.maximum}`);
        continue;
      }
    } else if (typeof v !== 'boolean') {
      problems.push(`Value ${shown(v)} at '${name}' failed to satisfy constraint: Member must be a boolean`);
      continue;
    }
    out[name] = v;
  }
  if (problems.length) {
    const shownProblems = problems.slice(0, 10);
    throw new ValidationError(`${problems.length} validation error${problems.length > 1 ? 's' : ''} detected: ${shownProblems.join('; ')}`);
  }
  return out as Partial<T>;
}
