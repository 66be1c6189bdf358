/**
 * Rules shared by every GitHub-family route: the API version header and the media types accepted.
 */
import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../../errors/app-error';
import type { FamilyHooks } from '../register';

export const API_VERSION = '2026-03-10';
export const API_VERSION_HEADERS = ['x-service-api-version', 'x-github-api-version'];

/** Media types a GitHub client may ask for; anything JSON-compatible is answered with JSON. */
export function acceptable(accept: string | undefined): boolean {
  if (!accept || accept.trim() === '') return true;
  return accept.split(',').some((part) => {
    const t = part.split(';')[0].trim().toLowerCase();
    return (
      t === '*/*' ||
      t === 'application/*' ||
      t === 'application/json' ||
      t === 'application/vnd.service+json' ||
      /^application\/vnd\.github(\.v3)?(\.[a-z-]+)?(\+json)?$/.test(t)
    );
  });
}

export const githubFamilyHooks: FamilyHooks = {
  preHandler(req: FastifyRequest) {
    for (const h of API_VERSION_HEADERS) {
      const v = req.headers[h];
      if (v === undefined) continue;
      const value = Array.isArray(v) ? v[0] : v;
      if (value.trim() !== API_VERSION) {
        throw new ValidationError(
          `The requested API version '${value.slice(0, 40)}' is not supported. Supported versions: ${API_VERSION}.`,
          { status: 400 },
        );
      }
    }
    if (!acceptable(req.headers.accept)) {
      throw new ValidationError(
        'Unsupported Accept header: use application/vnd.service+json, application/vnd.github+json or application/json.',
        { status: 415 },
      );
    }
  },
};
