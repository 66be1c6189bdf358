/**
 * Services say what went wrong (AppError category + domain code), never an HTTP status; the GitHub family
 * decides the status (src/rest/github/family.ts). Unit tests that check which status a GitHub client would see
 * for a service error go through these.
 */
import { AppError } from '../../src/errors/app-error';
import { githubStatus } from '../../src/rest/github/family';

/** The status GitHub's family answers this error with. */
export function statusOf(e: unknown): number | undefined {
  return e instanceof AppError ? githubStatus(e) : undefined;
}

/**
 * The same promise, but a rejection carries `status` (the GitHub family's answer) next to the error's own
 * fields, so `await expect(github(p)).rejects.toMatchObject({ status: 400 })` reads as before.
 */
export function github<T>(p: Promise<T>): Promise<T> {
  return p.catch((e: unknown) => {
    if (e instanceof AppError) {
      throw Object.assign(Object.create(Object.getPrototypeOf(e) as object) as AppError, e, { message: e.message, status: githubStatus(e) });
    }
    throw e;
  });
}
