/**
 * Domain codes shared by every domain and transport (the `domainCode` of an AppError). A domain adds its own
 * next to its services (e.g. src/services/secret-scanning/error-codes.ts). Families map codes to their
 * answers (src/rest/<family>/family.ts); GraphQL shows them as `extensions.domainCode`.
 */
export const REQUEST_CODES = {
  /** The body could not be parsed (malformed JSON). */
  BODY_MALFORMED: 'BODY_MALFORMED',
  /** The body parsed but is not a JSON object. */
  BODY_NOT_OBJECT: 'BODY_NOT_OBJECT',
  BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  /** More parameters, or deeper bracket nesting, than a request may carry (src/rest/bracket-params.ts). */
  PARAMS_OVER_LIMIT: 'PARAMS_OVER_LIMIT',
  /** Content-Type the endpoint does not read. */
  MEDIA_TYPE_UNSUPPORTED: 'MEDIA_TYPE_UNSUPPORTED',
  /** Accept names no media type the endpoint answers with. */
  NOT_ACCEPTABLE: 'NOT_ACCEPTABLE',
  /** The API version header names a version this server does not serve. */
  API_VERSION_UNSUPPORTED: 'API_VERSION_UNSUPPORTED',
  /** A paging cursor that this server did not issue (or that was tampered with). */
  INVALID_CURSOR: 'INVALID_CURSOR',
  /** Paging arguments that cannot go together or are out of range (first + last, first > 100). */
  INVALID_PAGINATION: 'INVALID_PAGINATION',
  /** A global id that names no node type of this graph, or is malformed. */
  INVALID_GLOBAL_ID: 'INVALID_GLOBAL_ID',
  /** More ids than one request may ask for. */
  TOO_MANY_IDS: 'TOO_MANY_IDS',
} as const;

export type RequestCode = (typeof REQUEST_CODES)[keyof typeof REQUEST_CODES];

/** Why a credential was refused (the domain code of an UnauthenticatedError; the message stays "Bad credentials"). */
export const AUTH_CODES = {
  /** Basic (application password): the login names no User account. */
  UNKNOWN_LOGIN: 'UNKNOWN_LOGIN',
  /** Basic (application password): the password is no live token of that user. */
  WRONG_PASSWORD: 'WRONG_PASSWORD',
} as const;
