/**
 * GraphQL types of HTTP task connections (connections.service.ts). Secrets are input-only: no output field carries
 * the API key value, the password or the client secret.
 */
import { IsOptional, MaxLength, MinLength } from 'class-validator';
import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { CONNECTION_AUTH_TYPES, type ConnectionAuthType } from '../../src/services/workflow/connections.service';
import { enumFrom } from '../common/enum';

export const WorkflowConnectionAuthTypeEnum = enumFrom(CONNECTION_AUTH_TYPES);
export type WorkflowConnectionAuthTypeEnum = ConnectionAuthType;
registerEnumType(WorkflowConnectionAuthTypeEnum, { name: 'WorkflowConnectionAuthType', description: 'How an HTTP task authenticates with the connection.' });

@ObjectType('WorkflowConnectionAuthParameters', { simpleResolvers: true, description: 'The readable parameters of a connection (never its secret).' })
export class WorkflowConnectionAuthParameters {
  @Field(() => String, { nullable: true, description: 'API_KEY: the header the key is sent in.' }) apiKeyName?: string;
  @Field(() => String, { nullable: true, description: 'BASIC: the user name.' }) username?: string;
  @Field(() => String, { nullable: true, description: 'OAUTH_CLIENT_CREDENTIALS: the client id.' }) clientId?: string;
  @Field(() => String, { nullable: true, description: 'OAUTH_CLIENT_CREDENTIALS: the token endpoint.' }) authorizationEndpoint?: string;
  @Field(() => String, { nullable: true, description: 'OAUTH_CLIENT_CREDENTIALS: the token request method.' }) httpMethod?: string;
  @Field(() => String, { nullable: true, description: 'OAUTH_CLIENT_CREDENTIALS: the scope asked for.' }) scope?: string;
}

@ObjectType('WorkflowConnection', { simpleResolvers: true, description: 'A connection of workflow HTTP tasks (EventBridge-shaped); site admins only.' })
export class WorkflowConnection {
  @Field({ description: 'arn:aws:events:<region>:<account>:connection/<name>/<uuid>: the Authentication.ConnectionArn of HTTP tasks.' }) arn: string;
  @Field() name: string;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field(() => WorkflowConnectionAuthTypeEnum) authorizationType: ConnectionAuthType;
  @Field(() => WorkflowConnectionAuthParameters) authParameters: WorkflowConnectionAuthParameters;
  @Field() createdAt: Date;
}

@InputType('CreateWorkflowConnectionInput')
export class CreateWorkflowConnectionInput {
  @Field({ description: '1-64 letters, digits, . - _' }) @MinLength(1) @MaxLength(64) name: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(512) description?: string | null;
  @Field(() => WorkflowConnectionAuthTypeEnum) authorizationType: ConnectionAuthType;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(512) apiKeyName?: string | null;
  @Field(() => String, { nullable: true, description: 'Secret: stored encrypted, never returned.' }) @IsOptional() @MaxLength(512) apiKeyValue?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(512) username?: string | null;
  @Field(() => String, { nullable: true, description: 'Secret: stored encrypted, never returned.' }) @IsOptional() @MaxLength(512) password?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(2048) authorizationEndpoint?: string | null;
  @Field(() => String, { nullable: true, description: 'POST (default), GET or PUT.' }) @IsOptional() @MaxLength(8) httpMethod?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(512) clientId?: string | null;
  @Field(() => String, { nullable: true, description: 'Secret: stored encrypted, never returned.' }) @IsOptional() @MaxLength(512) clientSecret?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(512) scope?: string | null;
}

@InputType('DeleteWorkflowConnectionInput')
export class DeleteWorkflowConnectionInput {
  @Field({ description: 'The connection ARN or name.' }) @MinLength(1) @MaxLength(256) connection: string;
}

@ObjectType('WorkflowConnectionPayload', { simpleResolvers: true })
export class WorkflowConnectionPayload {
  @Field(() => WorkflowConnection) connection: WorkflowConnection;
}
