import type { NonEmptyArray } from 'type-graphql';
import { NodeResolver } from './common/node.resolver';
import { OrganizationResolver, RepositoryResolver, UserResolver } from './identity/identity.resolver';
import { SECRET_SCANNING_RESOLVERS } from './secret-scanning/secret-scanning.resolver';
import { CALENDAR_RESOLVERS } from './calendar';
import { WORKFLOW_RESOLVERS } from './workflow/workflow.resolver';

/** Every resolver of every domain: the schema is built from exactly this list. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const RESOLVERS: NonEmptyArray<Function> = [NodeResolver, UserResolver, OrganizationResolver, RepositoryResolver, ...SECRET_SCANNING_RESOLVERS, ...CALENDAR_RESOLVERS, ...WORKFLOW_RESOLVERS];
