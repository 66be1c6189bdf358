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
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  /** array: the items' schema and count. */
  items?: MemberSchema;
  minItems?: number;
  maxItems?: number;
  /** object (a structure): its members, decoded by the same rules. */
  properties?: Record<string, MemberSchema>;
  required?: readonly string[];
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
    const decoded = decodeMember(name, v, m, problems);
    if (decoded !== undefined) out[name] = decoded;
  }
  if (problems.length) {
    const shownProblems = problems.slice(0, 10);
    throw new ValidationError(`${problems.length} validation error${problems.length > 1 ? 's' : ''} detected: ${shownProblems.join('; ')}`);
  }
  return out as Partial<T>;
}

/** One member's value (undefined when it has a problem, which is added to `problems`). */
function decodeMember(name: string, v: unknown, m: MemberSchema, problems: string[]): unknown {
  const n0 = problems.length;
  if (m.type === 'string') {
    if (typeof v !== 'string') problems.push(`Value ${shown(v)} at '${name}' failed to satisfy constraint: Member must be a string`);
    else if (v.includes('\u0000')) problems.push(`Value at '${name}' failed to satisfy constraint: Member must not contain the NUL character`);
    else if (m.minLength !== undefined && v.length < m.minLength) {
      problems.push(`Value ${shown(v)} at '${name}' failed to satisfy constraint: Member must have length greater than or equal to ${m.minLength}`);
    } else if (m.maxLength !== undefined && v.length > m.maxLength) {
      problems.push(`Value at '${name}' failed to satisfy constraint: Member must have length less than or equal to ${m.maxLength}`);
    } else if (m.enum && !m.enum.includes(v)) {
      problems.push(`Value ${shown(v)} at '${name}' failed to satisfy constraint: Member must satisfy enum value set: [${m.enum.join(', ')}]`);
    }
  } else if (m.type === 'integer' || m.type === 'number') {
    if (typeof v !== 'number' || !Number.isFinite(v) || (m.type === 'integer' && !Number.isInteger(v))) {
      problems.push(`Value ${shown(v)} at '${name}' failed to satisfy constraint: Member must be ${m.type === 'integer' ? 'an integer' : 'a number'}`);
    }
    else if (m.minimum !== undefined && v < m.minimum) {
      problems.push(`Value '${v}' at '${name}' failed to satisfy constraint: Member must have value greater than or equal to ${m.minimum}`);
    } else if (m.maximum !== undefined && v > m.maximum) {
      problems.push(`Value '${v}' at '${name}' failed to satisfy constraint: Member must have value less than or equal to ${m.maximum}`);
    }
  } else if (m.type === 'boolean') {
    if (typeof v !== 'boolean') problems.push(`Value ${shown(v)} at '${name}' failed to satisfy constraint: Member must be a boolean`);
  } else if (m.type === 'array') {
    if (!Array.isArray(v)) problems.push(`Value ${shown(v)} at '${name}' failed to satisfy constraint: Member must be a list`);
    else if (m.minItems !== undefined && v.length < m.minItems) {
      problems.push(`Value at '${name}' failed to satisfy constraint: Member must have length greater than or equal to ${m.minItems}`);
    } else if (m.maxItems !== undefined && v.length > m.maxItems) {
      problems.push(`Value at '${name}' failed to satisfy constraint: Member must have length less than or equal to ${m.maxItems}`);
    } else {
      const items = v.map((x, i) => (x === null || x === undefined ? (problems.push(`Value null at '${name}.${i + 1}.member' failed to satisfy constraint: Member must not be null`), undefined) : decodeMember(`${name}.${i + 1}.member`, x, m.items!, problems)));
      if (problems.length === n0) return items;
    }
  } else {
    if (!v || typeof v !== 'object' || Array.isArray(v)) problems.push(`Value ${shown(v)} at '${name}' failed to satisfy constraint: Member must be a structure`);
    else {
      const src = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, sub] of Object.entries(m.properties ?? {})) {
        const x = Object.prototype.hasOwnProperty.call(src, k) ? src[k] : undefined;
        if (x === undefined || x === null) {
          if (m.required?.includes(k)) problems.push(`Value null at '${name}.${k}' failed to satisfy constraint: Member must not be null`);
          continue;
        }
        const d = decodeMember(`${name}.${k}`, x, sub, problems);
        if (d !== undefined) out[k] = d;
      }
      if (problems.length === n0) return out;
    }
  }
  return problems.length === n0 ? v : undefined;
}
