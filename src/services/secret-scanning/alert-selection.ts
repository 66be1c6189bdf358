/**
 * What an alert list reads for the fields its caller shows (a GraphQL selection, by the graph's field names): which
 * related rows it joins, and which columns of the alert and of each related row. The rule lives here, once; the
 * resolvers hand over the names selected (resolvers/common/lookahead.ts `itemSelection`).
 */
import type { AccountEntity } from '../../../entities/identity';
import type { SecretScanningAlertEntity, SecretScanningLocationEntity } from '../../../entities/secret-scanning';
import { FieldReads, ItemSelection, propertiesRead } from '../common/field-reads';
import { REPOSITORY_FIELD_READS, USER_FIELD_READS } from '../identity/field-reads';
import type { AlertIncludes, AlertUserField } from './alert-queries';

/**
 * What each SecretScanningAlert field reads of its entity (the type's plain fields and the alert's field resolvers
 * in resolvers/secret-scanning). A field not listed here (`locations`, which goes through a service) makes a list
 * read whole rows. test/e2e/secret-scanning-graphql.e2e.ts checks every entry against whole rows.
 */
export const ALERT_FIELD_READS: FieldReads<keyof SecretScanningAlertEntity & string> = {
  __typename: [],
  id: ['id'],
  number: ['number'],
  createdAt: ['createdAt'],
  updatedAt: ['updatedAt'],
  state: ['state'],
  resolution: ['resolution'],
  resolvedAt: ['resolvedAt'],
  resolutionComment: ['resolutionComment'],
  secretType: ['secretType'],
  secretTypeDisplayName: ['secretTypeDisplayName'],
  provider: ['provider'],
  providerSlug: ['providerSlug'],
  secret: ['secret'],
  validity: ['validity'],
  publiclyLeaked: ['publiclyLeaked'],
  multiRepo: ['multiRepo'],
  isBase64Encoded: ['isBase64Encoded'],
  pushProtectionBypassed: ['pushProtectionBypassed'],
  pushProtectionBypassedAt: ['pushProtectionBypassedAt'],
  url: ['repositoryId', 'number'],
  htmlUrl: ['repositoryId', 'number'],
  locationsUrl: ['repositoryId', 'number'],
  resolvedBy: ['resolvedById'],
  pushProtectionBypassedBy: ['pushProtectionBypassedById'],
  assignedTo: ['assignedToId'],
  repository: ['repositoryId'],
  firstLocationDetected: ['firstLocationId', 'repositoryId'],
  hasMoreLocations: ['locationsCount'],
};

/** Alert fields whose values are built from the alert's repository (its name, and its owner through the loaders). */
const NEEDS_REPOSITORY_NAME = ['url', 'htmlUrl', 'locationsUrl', 'firstLocationDetected'];
/** `locations` reads the repository through the loaders too (whole rows: it is not declared above). */
const NEEDS_REPOSITORY = ['repository', 'locations', ...NEEDS_REPOSITORY_NAME];
const USER_FIELDS: readonly AlertUserField[] = ['assignedTo', 'resolvedBy', 'pushProtectionBypassedBy'];

/**
 * What `firstLocationDetected` reads of the location: the commit form copies its range, blob and commit, and its
 * URLs read the type, path and URL (src/services/secret-scanning/urls.ts `commitLocationUrls`).
 */
export const FIRST_LOCATION_READS: readonly (keyof SecretScanningLocationEntity & string)[] = [
  'type',
  'path',
  'startLine',
  'endLine',
  'startColumn',
  'endColumn',
  'blobSha',
  'commitSha',
  'url',
];

/**
 * The includes of an alert list whose caller shows `selection` of each alert: the relations those fields lead to,
 * the alert's properties they read, and what they read of each related row (the page reads narrow related rows
 * only when the alert itself is narrow: alert-queries.ts `joinIncludes`).
 */
export function alertIncludesFor(selection: ItemSelection, totalCount: boolean): AlertIncludes {
  const { fields, subfields } = selection;
  const has = (f: string) => fields.has(f);
  const under = (f: string) => subfields.get(f) ?? new Set<string>();
  const users = USER_FIELDS.filter(has);
  let repositoryReads = has('repository') ? propertiesRead(under('repository'), REPOSITORY_FIELD_READS) : [];
  if (repositoryReads && NEEDS_REPOSITORY_NAME.some(has)) repositoryReads = [...new Set([...repositoryReads, 'ownerId' as const, 'name' as const])];
  let userReads: (keyof AccountEntity & string)[] | undefined = ['type'];
  for (const f of users) {
    const r = propertiesRead(under(f), USER_FIELD_READS);
    userReads = r && userReads ? [...new Set([...userReads, ...r])] : undefined;
  }
  return {
    reads: propertiesRead(fields, ALERT_FIELD_READS),
    repository: NEEDS_REPOSITORY.some(has),
    users,
    firstLocation: has('firstLocationDetected'),
    totalCount,
    relatedReads: { repository: repositoryReads, users: userReads, firstLocation: FIRST_LOCATION_READS },
  };
}
