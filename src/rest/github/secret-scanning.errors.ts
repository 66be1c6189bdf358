/**
 * How the GitHub family answers secret scanning's domain codes whose status differs from their category's
 * (invalid input is 422 unless listed here). GitHub answers these PATCH problems 400, as its update-alert
 * operation documents. A domain served in the GitHub family adds such a file and one line in family.ts.
 */
import { SECRET_SCANNING_CODES } from '../../services/secret-scanning/error-codes';

export const SECRET_SCANNING_GITHUB_STATUSES: Record<string, number> = {
  [SECRET_SCANNING_CODES.RESOLUTION_COMMENT_INVALID]: 400,
  [SECRET_SCANNING_CODES.RESOLUTION_UNCHANGED]: 400,
  [SECRET_SCANNING_CODES.RESOLUTION_COMMENT_IMMUTABLE]: 400,
};
