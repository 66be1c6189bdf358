/**
 * What the graph's identity fields read of their rows, and the narrow column sets lists read when the fields shown
 * need no more (src/services/common/field-reads.ts). One narrow set per entity rather than exactly the columns
 * asked for: every set is a statement shape of its own (cached per shape, prepared per connection on PostgreSQL),
 * and a client's choice of fields must not multiply them.
 */
import type { AccountEntity, RepositoryEntity } from '../../../entities/identity';
import type { FieldReads } from '../common/field-reads';

/**
 * What each Repository field reads of its entity (resolvers/identity RepositoryResolver and the Repository type's
 * plain fields). A field not listed here (the permission, settings and secret scanning fields, which go through
 * services) makes a list read whole rows. test/e2e/repository-columns.e2e.ts checks every entry against whole rows.
 */
export const REPOSITORY_FIELD_READS: FieldReads<keyof RepositoryEntity & string> = {
  __typename: [],
  id: ['id'],
  databaseId: ['id'],
  name: ['name'],
  description: ['description'],
  isPrivate: ['private'],
  createdAt: ['createdAt'],
  owner: ['ownerId'],
  nameWithOwner: ['ownerId', 'name'],
};

/**
 * What a repository list reads when its caller needs no more: what lists of names show (name, privacy, owner) and
 * the page's own needs (the cursor's sort key and id).
 */
export const REPOSITORY_LIST_COLUMNS: readonly (keyof RepositoryEntity & string)[] = Object.freeze(['id', 'ownerId', 'name', 'nameLower', 'private'] as const);

/**
 * What each User field reads of its account (resolvers/identity UserResolver and the User type's plain fields).
 * The User type's `isTypeOf` reads `type` too (ACCOUNT_LIST_COLUMNS always has it).
 */
export const USER_FIELD_READS: FieldReads<keyof AccountEntity & string> = {
  __typename: [],
  id: ['id'],
  databaseId: ['id'],
  login: ['login'],
  name: ['name'],
  calendarRole: ['calendarRole'],
  siteAdmin: ['siteAdmin'],
  createdAt: ['createdAt'],
};

/** What a list reads of the accounts it names (an alert's assignee, ...) when the fields shown need no more. */
export const ACCOUNT_LIST_COLUMNS: readonly (keyof AccountEntity & string)[] = Object.freeze(['id', 'login', 'type', 'name'] as const);
