/**
 * Secret scanning alerts: the shapes services take and give (filters, order, paging, updates, findings)
 * and the limits they check, shared by the alert services and the transports that map onto them.
 */
import type { LocationType, SecretScanningAlertEntity } from '../../../entities/secret-scanning';
import { ValidationError } from '../../errors/app-error';
import type { Page, PageArgs } from '../common/pagination';
import { SECRET_SCANNING_CODES } from './error-codes';

export const DEFAULT_PER_PAGE = 30;

export interface AlertFilter {
  state?: string | null;
  secretTypes?: string[] | null;
  excludeSecretTypes?: string[] | null;
  providers?: string[] | null;
  excludeProviders?: string[] | null;
  resolutions?: string[] | null;
  /** a login, `*` (any assignee) or `none` (unassigned) */
  assignee?: string | null;
  validities?: string[] | null;
  isPubliclyLeaked?: boolean | null;
  isMultiRepo?: boolean | null;
  isBypassed?: boolean | null;
  /** Only alerts having all these metadata fields (GitHub's included_metadata). */
  includedMetadata?: string[] | null;
  /** Only alerts whose owner_email metadata has this lowercase hex SHA-256. */
  ownerEmailHash?: string | null;
}

/** The metadata fields GitHub can attach to an alert (included_metadata filter values). */
export const INCLUDED_METADATA_VALUES = [
  'owner-email',
  'owner-id',
  'owner-name',
  'secret-id',
  'secret-name',
  'secret-issued-date',
  'secret-expiration-date',
  'organization-name',
  'organization-id',
  'last-used-date',
  'has-organization-access',
] as const;


export interface AlertOrder {
  sort?: string | null; // created | updated
  direction?: string | null; // asc | desc
}

/** Page mode (page/per_page) or cursor mode (first/after/last/before, or per_page with after/before). */
export type AlertPaging = { mode: 'page'; page: number; perPage: number } | ({ mode: 'cursor' } & PageArgs);

export type AlertPage = Page<SecretScanningAlertEntity>;

/**
 * An alert update in the domain's names. A key that is present (even with null) is part of the update; an
 * absent key is not (`null` unassigns, clears a validity override, ...). Values are unchecked: the service
 * validates them (REST bodies and GraphQL inputs map onto this as they are).
 */
export interface AlertUpdate {
  state?: unknown;
  resolution?: unknown;
  resolutionComment?: unknown;
  assignee?: unknown;
  validity?: unknown;
}

export type AlertUpdateField = keyof AlertUpdate;

/** Whether the update carries `field` (with any value, null included). */
export function carries(update: AlertUpdate, field: AlertUpdateField): boolean {
  return Object.prototype.hasOwnProperty.call(update, field);
}

export const MAX_RESOLUTION_COMMENT = 280;
/** The length of the secret_type and provider_slug columns. */
export const MAX_SLUG_LENGTH = 100;

export interface Finding {
  secretType: string;
  secretTypeDisplayName: string;
  provider: string | null;
  providerSlug: string | null;
  secret: string;
  isBase64Encoded?: boolean;
  location: {
    type: LocationType;
    path?: string | null;
    startLine?: number | null;
    endLine?: number | null;
    startColumn?: number | null;
    endColumn?: number | null;
    blobSha?: string | null;
    commitSha?: string | null;
    url?: string | null;
  };
  bypass?: { byId: number; at: Date; reason: 'false_positive' | 'used_in_tests' | 'will_fix_later' };
}

/** A validation error on one field of an alert (or of another secret scanning resource). */
export function invalid(field: string, message: string, domainCode: string = SECRET_SCANNING_CODES.INVALID_ALERT_FIELD, resource = 'SecretScanningAlert'): ValidationError {
  return new ValidationError(message, { domainCode, fieldErrors: [{ resource, field, code: 'invalid', message }] });
}

/**
 * The same, for a message that names fields as `{{field}}` tokens (each transport spells them its own way) and
 * quotes client input as `{{0}}`, `{{1}}`, ... (`values`, already quoted).
 */
export function invalidNamed(field: string, template: string, values: string[], domainCode: string = SECRET_SCANNING_CODES.INVALID_ALERT_FIELD, resource = 'SecretScanningAlert'): ValidationError {
  return new ValidationError(template, { domainCode, namesFields: true, values, fieldErrors: [{ resource, field, code: 'invalid', message: template }] });
}
