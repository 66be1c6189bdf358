/**
 * Domain codes of secret scanning errors (the `domainCode` of the AppErrors its services throw). They say
 * what went wrong in the domain's terms; each transport decides how to answer (GitHub family: 400 for the
 * resolution problems below, 422 for the other invalid input; GraphQL: BAD_USER_INPUT + this code).
 */
export const SECRET_SCANNING_CODES = {
  /** An update names none of state, assignee, validity. */
  UPDATE_EMPTY: 'UPDATE_EMPTY',
  /** A state, resolution, validity or assignee value of the wrong kind. */
  INVALID_ALERT_FIELD: 'INVALID_ALERT_FIELD',
  /** Resolving without a resolution, or a resolution (comment) that does not match the state. */
  STATE_RESOLUTION_MISMATCH: 'STATE_RESOLUTION_MISMATCH',
  /** The resolution comment is not a string of at most 280 characters without NUL. */
  RESOLUTION_COMMENT_INVALID: 'RESOLUTION_COMMENT_INVALID',
  /** Rule 3: the update would not change the resolution (already open / already resolved so). */
  RESOLUTION_UNCHANGED: 'RESOLUTION_UNCHANGED',
  /** Rule 2: the resolution comment cannot be changed or removed once set. */
  RESOLUTION_COMMENT_IMMUTABLE: 'RESOLUTION_COMMENT_IMMUTABLE',
  /** Rule 4: delegated alert dismissal; the viewer is not a reviewer. */
  DISMISSAL_NEEDS_REVIEWER: 'DISMISSAL_NEEDS_REVIEWER',
  /** Rule 5: the assignee is not a user with write access to the repository. */
  ASSIGNEE_LACKS_WRITE_ACCESS: 'ASSIGNEE_LACKS_WRITE_ACCESS',
  /** An alert filter value outside its enumeration, or two filters that exclude each other. */
  INVALID_FILTER: 'INVALID_FILTER',
  /** Secret scanning is off on the repository (its alerts, scans and history are not found). */
  SECRET_SCANNING_DISABLED: 'SECRET_SCANNING_DISABLED',
  /** Push protection is off on the repository (no bypass can be created). */
  PUSH_PROTECTION_DISABLED: 'PUSH_PROTECTION_DISABLED',
  /** Push protection bypass: no such placeholder (or not this repository's). */
  PLACEHOLDER_NOT_FOUND: 'PLACEHOLDER_NOT_FOUND',
  /** Push protection bypass by someone other than the pusher. */
  BYPASS_NOT_PUSHER: 'BYPASS_NOT_PUSHER',
  /** Invalid bypass or push input (reason, placeholder id, content). */
  INVALID_PUSH_INPUT: 'INVALID_PUSH_INPUT',
} as const;

export type SecretScanningCode = (typeof SECRET_SCANNING_CODES)[keyof typeof SECRET_SCANNING_CODES];
