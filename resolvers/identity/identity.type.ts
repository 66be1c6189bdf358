import { IsOptional, Matches, MaxLength } from 'class-validator';
import { Field, ID, InputType, Int, InterfaceType, ObjectType, registerEnumType } from 'type-graphql';
import { Node } from '../common/node';

export enum RepositoryPermissionEnum {
  ADMIN = 'admin',
  WRITE = 'write',
  READ = 'read',
}
registerEnumType(RepositoryPermissionEnum, {
  name: 'RepositoryPermission',
  description: "A user's permission on a repository.",
});

export enum OrganizationRoleEnum {
  ADMIN = 'admin',
  SECURITY_MANAGER = 'security_manager',
  MEMBER = 'member',
}
registerEnumType(OrganizationRoleEnum, { name: 'OrganizationRole', description: "A member's role in an organization." });

export enum CalendarRoleEnum {
  EDITOR = 'editor',
  AUTHOR = 'author',
  CONTRIBUTOR = 'contributor',
  SUBSCRIBER = 'subscriber',
}
registerEnumType(CalendarRoleEnum, { name: 'CalendarRole', description: "A user's role in the events calendar." });

@InterfaceType('RepositoryOwner', {
  description: 'An account that can own repositories: a user or an organization.',
  resolveType: (v: { type?: string }) => (v.type === 'Organization' ? 'Organization' : 'User'),
})
export abstract class RepositoryOwner {
  @Field(() => ID) id: string;
  @Field() login: string;
}

@ObjectType('User', { simpleResolvers: true, implements: [Node, RepositoryOwner], description: 'A user account.' })
export class User {
  @Field(() => ID) id: string;
  @Field(() => Int, { description: 'The numeric id used by the REST APIs.' }) databaseId: number;
  @Field() login: string;
  @Field(() => String, { nullable: true }) name: string | null;
  @Field(() => CalendarRoleEnum, { nullable: true, description: 'Role in the events calendar, if any.' })
  calendarRole: CalendarRoleEnum | null;
  @Field() siteAdmin: boolean;
  @Field() createdAt: Date;
}

@ObjectType('Organization', { simpleResolvers: true, implements: [Node, RepositoryOwner], description: 'An organization account.' })
export class Organization {
  @Field(() => ID) id: string;
  @Field(() => Int) databaseId: number;
  @Field() login: string;
  @Field(() => String, { nullable: true }) name: string | null;
  @Field() createdAt: Date;
}

@ObjectType('RepositorySecuritySettings', { simpleResolvers: true, description: 'Security and analysis settings of a repository.' })
export class RepositorySecuritySettings {
  @Field() secretScanning: boolean;
  @Field() pushProtection: boolean;
  @Field() advancedSecurity: boolean;
  @Field({ description: 'Only reviewers (repository and organization admins, security managers) may close alerts.' })
  delegatedAlertDismissal: boolean;
}

@ObjectType('Repository', { simpleResolvers: true, implements: [Node], description: 'A repository.' })
export class Repository {
  @Field(() => ID) id: string;
  @Field(() => Int) databaseId: number;
  @Field() name: string;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field() isPrivate: boolean;
  @Field() createdAt: Date;
}

@InputType('UpdateRepositorySecuritySettingsInput')
export class UpdateRepositorySecuritySettingsInput {
  @Field({ description: 'The repository, written owner/name.' })
  @MaxLength(140)
  @Matches(/^[^/\s]+\/[^/\s]+$/, { message: 'repository must be written owner/name' })
  repository: string;

  @Field(() => Boolean, { nullable: true }) @IsOptional() secretScanning?: boolean | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() pushProtection?: boolean | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() advancedSecurity?: boolean | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() delegatedAlertDismissal?: boolean | null;
}

@ObjectType('UpdateRepositorySecuritySettingsPayload', { simpleResolvers: true })
export class UpdateRepositorySecuritySettingsPayload {
  @Field(() => Repository) repository: unknown;
}
