/**
 * `idempotency_auto_fill` (aws-sdk-php IdempotencyTokenMiddleware, reference §1): for the first input member of the
 * operation with the `idempotencyToken` trait, a falsy value is replaced by a UUID v4 made from 16 bytes of a secure
 * random source (`crypto.randomBytes` by default, or the option's callable). It runs in the init step, before
 * validation, so a filled token is validated and serialized like a given one. In the Step Functions model only
 * RedriveExecution's `clientToken` carries the trait.
 */
import { randomBytes } from 'node:crypto';
import { InvalidArgumentError } from './errors';
import type { Service } from './api';
import type { Middleware } from './types';

export type BytesSource = (n: number) => Uint8Array | string;

/** RFC 4122 version 4 from 16 bytes: version nibble 0100, variant bits 10 (as PHP's getUuidV4). */
export function uuidV4FromBytes(source: Uint8Array | string): string {
  // A callable may hand back a binary string (PHP's random_bytes form) instead of bytes.
  const bytes = typeof source === 'string' ? Buffer.from(source, 'latin1') : source;
  if (!(bytes instanceof Uint8Array) || bytes.length < 16) {
    throw new InvalidArgumentError(`A UUID v4 needs 16 random bytes; the bytes source gave ${
        bytes instanceof Uint8Array ? bytes.length : typeof bytes
      }.`);
  }
  const b = Uint8Array.from(bytes.subarray(0, 16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Buffer.from(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The name of the operation's idempotency-token member, or undefined (cached per operation). */
export function idempotencyTokenMember(service: Service, opName: string): string | undefined {
  if (!service.hasOperation(opName)) return undefined;
  const members = service.getInputShape(opName).members ?? {};
  for (const [name, ref] of Object.entries(members)) {
    if (ref.idempotencyToken === true) return name;
  }
  return undefined;
}

const defaultBytes: BytesSource = (n) => randomBytes(n);

export function idempotencyMiddleware(service: Service, bytesSource: BytesSource = defaultBytes): Middleware {
  if (typeof bytesSource !== 'function') {
    throw new InvalidArgumentError('The idempotency bytes source must be a function (n) => Uint8Array.');
  }
  const memberByOp = new Map<string, string | undefined>();
  return (next) => (command, request) => {
    let member = memberByOp.get(command.name);
    if (!memberByOp.has(command.name)) {
      member = idempotencyTokenMember(service, command.name);
      memberByOp.set(command.name, member);
    }
    if (member !== undefined && !command.args[member]) {
      try {
        command.args[member] = uuidV4FromBytes(bytesSource(16));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return next(command, request);
  };
}
