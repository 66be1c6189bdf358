/**
 * Connections of HTTP tasks, shaped like EventBridge connections (`arn:aws:events:<region>:<account>:connection/
 * <name>/<uuid>`): how an `arn:aws:states:::http:invoke` task authenticates to an API — an API key header, basic
 * auth, or an OAuth client-credentials grant. Rules:
 *  - only site admins create, list and delete them (GraphQL; the admin CLI acts with the database's own rights):
 *    a connection carries a credential every workflow job of the gateway may use by its ARN, as every role of an
 *    AWS account may use the account's connections when its policy names them;
 *  - the secret parts (API key value, password, client secret) are sealed with the server's SecretBox (as access
 *    keys are) and never returned, logged or put in an error; what identifies the credential is readable;
 *  - HTTP tasks read a connection's credential through `credentialsFor`, as the job's starter.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { WorkflowConnectionEntity } from '../../../entities/workflow';
import type { AppConfig } from '../../config';
import type { RequestContext } from '../../context';
import { withTransaction } from '../../context';
import { ConflictError, ForbiddenError, NotFoundError, quoteInput, UnauthenticatedError, ValidationError } from '../../errors/app-error';
import type { IdentityService } from '../identity/identity.service';
import { requireWorkflowAccess } from './access';
import { WORKFLOW_CODES } from './error-codes';
import { allowListOf } from './http/allow-list';

export type ConnectionAuthType = 'API_KEY' | 'BASIC' | 'OAUTH_CLIENT_CREDENTIALS';
export const CONNECTION_AUTH_TYPES: readonly ConnectionAuthType[] = ['API_KEY', 'BASIC', 'OAUTH_CLIENT_CREDENTIALS'];
const OAUTH_METHODS = ['GET', 'POST', 'PUT'] as const;
/** EventBridge's default quota of connections per account and region is 100; a gateway may want more. */
export const MAX_CONNECTIONS = 1000;
const NAME = /^[.\-_A-Za-z0-9]{1,64}$/;
const MAX_SECRET = 512;
const MAX_PUBLIC = 512;

/** What a create takes (CLI flags and the GraphQL input map onto it). */
export interface CreateConnectionInput {
  name: string;
  description?: string | null;
  authorizationType: string;
  /** API_KEY */
  apiKeyName?: string | null;
  apiKeyValue?: string | null;
  /** BASIC */
  username?: string | null;
  password?: string | null;
  /** OAUTH_CLIENT_CREDENTIALS */
  authorizationEndpoint?: string | null;
  httpMethod?: string | null;
  clientId?: string | null;
  clientSecret?: string | null;
  scope?: string | null;
}

/** The readable parameters of a connection (never a secret). */
export interface ConnectionAuthParameters {
  apiKeyName?: string;
  username?: string;
  clientId?: string;
  authorizationEndpoint?: string;
  httpMethod?: string;
  scope?: string;
}

/** A connection as the API shows it. */
export interface ConnectionView {
  arn: string;
  name: string;
  description: string | null;
  authorizationType: ConnectionAuthType;
  authParameters: ConnectionAuthParameters;
  createdAt: Date;
}

/** What an HTTP task needs to authenticate (secrets included: kept in memory, never logged). */
export interface ConnectionCredentials {
  arn: string;
  /** The row's id and creation time: an OAuth token cached for a deleted and recreated connection is not reused. */
  cacheKey: string;
  type: ConnectionAuthType;
  params: ConnectionAuthParameters;
  secret: string;
}

function bad(message: string): ValidationError {
  return new ValidationError(message);
}

function text(v: string | null | undefined, field: string, max: number, required: boolean): string | undefined {
  if (v === undefined || v === null || v === '') {
    if (required) throw bad(`${field} is required for this authorization type`);
    return undefined;
  }
  if (typeof v !== 'string') throw bad(`${field} must be a string`);
  if (v.length > max) throw bad(`${field} must be at most ${max} characters`);
  if (/[\u0000-\u001f\u007f]/.test(v)) throw bad(`${field} must not contain control characters`);
  return v;
}

export function connectionArn(config: Pick<AppConfig, 'workflowRegion' | 'workflowAccountId'>, name: string, id: string = randomUUID()): string {
  return `arn:aws:events:${config.workflowRegion}:${config.workflowAccountId}:connection/${name}/${id}`;
}

const ARN = /^arn:aws(?:-[a-z]+)*:events:([a-z]{2}(?:-[a-z]+)+-\d{1,2}):(\d{12}):connection\/([.\-_A-Za-z0-9]{1,64})\/([0-9a-f-]{36})$/;

/** The parts a connection ARN is made of; the name and the whole ARN identify it. */
export function isConnectionArn(arn: string): boolean {
  return ARN.test(arn);
}

/**
 * The checked, normalised input: readable parameters and the secret text to seal. `httpAllow` is WORKFLOW_HTTP_ALLOW:
 * an OAuth token endpoint must be https:// (the grant carries the client secret), plain http:// only to a host an
 * `http://` entry lists, the rule HTTP task endpoints follow (definition-check.ts); the task checks it again when it
 * runs, since the configuration may have changed since.
 */
export function checkConnectionInput(input: CreateConnectionInput, httpAllow: string): { name: string; description: string | null; type: ConnectionAuthType; params: ConnectionAuthParameters; secret: string } {
  const name = typeof input.name === 'string' ? input.name : '';
  if (!NAME.test(name)) throw bad(`Invalid connection name ${quoteInput(name)}: 1-64 letters, digits, '.', '-' or '_'`);
  const description = text(input.description, 'description', 512, false) ?? null;
  const type = input.authorizationType as ConnectionAuthType;
  if (!CONNECTION_AUTH_TYPES.includes(type)) throw bad(`authorizationType must be one of ${CONNECTION_AUTH_TYPES.join(', ')}`);
  const params: ConnectionAuthParameters = {};
  let secret: string;
  if (type === 'API_KEY') {
    params.apiKeyName = text(input.apiKeyName, 'apiKeyName', MAX_PUBLIC, true);
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(params.apiKeyName!)) throw bad('apiKeyName must be an HTTP header name');
    secret = text(input.apiKeyValue, 'apiKeyValue', MAX_SECRET, true)!;
  } else if (type === 'BASIC') {
    params.username = text(input.username, 'username', MAX_PUBLIC, true);
    if (params.username!.includes(':')) throw bad('username must not contain ":"');
    secret = text(input.password, 'password', MAX_SECRET, true)!;
  } else {
    const endpoint = text(input.authorizationEndpoint, 'authorizationEndpoint', 2048, true)!;
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw bad('authorizationEndpoint must be an absolute https:// URL');
    }
    if (url.protocol === 'http:' && !allowListOf(httpAllow).plainHttpAllowed(url.hostname)) {
      throw bad('authorizationEndpoint must be an https:// URL (plain http:// is allowed only to hosts WORKFLOW_HTTP_ALLOW lists with an http:// entry: the token request carries the client secret)');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad('authorizationEndpoint must be an absolute https:// URL');
    if (url.username || url.password) throw bad('authorizationEndpoint must not carry credentials');
    params.authorizationEndpoint = url.toString();
    const method = (text(input.httpMethod, 'httpMethod', 8, false) ?? 'POST').toUpperCase();
    if (!(OAUTH_METHODS as readonly string[]).includes(method)) throw bad(`httpMethod must be one of ${OAUTH_METHODS.join(', ')}`);
    params.httpMethod = method;
    params.clientId = text(input.clientId, 'clientId', MAX_PUBLIC, true);
    const scope = text(input.scope, 'scope', MAX_PUBLIC, false);
    if (scope) params.scope = scope;
    secret = text(input.clientSecret, 'clientSecret', MAX_SECRET, true)!;
  }
  return { name, description, type, params, secret };
}

export function presentConnection(row: WorkflowConnectionEntity): ConnectionView {
  let params: ConnectionAuthParameters = {};
  try {
    params = JSON.parse(row.authParameters) as ConnectionAuthParameters;
  } catch {
    params = {};
  }
  return { arn: row.arn, name: row.name, description: row.description, authorizationType: row.authorizationType as ConnectionAuthType, authParameters: params, createdAt: row.createdAt };
}

function connectionDoesNotExist(what: string): NotFoundError {
  return new NotFoundError(`Connection ${quoteInput(what)} does not exist.`, { domainCode: WORKFLOW_CODES.CONNECTION_DOES_NOT_EXIST });
}

export class WorkflowConnectionService {
  constructor(private readonly identity: IdentityService) {}

  /** Site admins with the workflow write permission (GraphQL); returns the user id. */
  private requireAdmin(ctx: RequestContext): number {
    const userId = requireWorkflowAccess(ctx, 'write');
    const v = ctx.viewer;
    if (v.kind !== 'user') throw new UnauthenticatedError('Requires authentication');
    if (v.user.siteAdmin !== true) throw new ForbiddenError('Only site admins may manage workflow connections.');
    return userId;
  }

  async create(ctx: RequestContext, input: CreateConnectionInput): Promise<ConnectionView> {
    const userId = this.requireAdmin(ctx);
    return withTransaction(ctx, (tx) => this.createIn(tx.db, ctx.config, input, userId));
  }

  /** The admin CLI's create (and the service's): inside the caller's transaction. */
  async createIn(db: EntityManager, config: AppConfig, input: CreateConnectionInput, createdBy: number | null): Promise<ConnectionView> {
    const c = checkConnectionInput(input, config.workflowHttpAllow);
    const repo = db.getRepository(WorkflowConnectionEntity);
    if (await repo.findOne({ where: { name: c.name }, select: { id: true } })) {
      throw new ConflictError(`Connection ${quoteInput(c.name)} already exists.`, { domainCode: WORKFLOW_CODES.CONNECTION_ALREADY_EXISTS });
    }
    if ((await repo.count()) >= MAX_CONNECTIONS) throw bad(`At most ${MAX_CONNECTIONS} connections`);
    const box = await this.identity.secretBox(db, config.secretKey);
    const row = await repo.save(
      repo.create({
        arn: connectionArn(config, c.name),
        name: c.name,
        description: c.description,
        authorizationType: c.type,
        authParameters: JSON.stringify(c.params),
        secretCiphertext: box.seal(c.secret),
        createdBy,
        createdAt: new Date(),
      }),
    );
    return presentConnection(row);
  }

  async list(ctx: RequestContext): Promise<ConnectionView[]> {
    this.requireAdmin(ctx);
    return this.listIn(ctx.db);
  }

  async listIn(db: EntityManager): Promise<ConnectionView[]> {
    const rows = await db.getRepository(WorkflowConnectionEntity).find({ order: { name: 'ASC' }, take: MAX_CONNECTIONS });
    return rows.map(presentConnection);
  }

  /** Delete by ARN or name; a connection that does not exist is NotFound (EventBridge: ResourceNotFoundException). */
  async delete(ctx: RequestContext, arnOrName: string): Promise<ConnectionView> {
    this.requireAdmin(ctx);
    return withTransaction(ctx, (tx) => this.deleteIn(tx.db, arnOrName));
  }

  async deleteIn(db: EntityManager, arnOrName: string): Promise<ConnectionView> {
    const repo = db.getRepository(WorkflowConnectionEntity);
    const where = isConnectionArn(arnOrName) ? { arn: arnOrName } : NAME.test(arnOrName) ? { name: arnOrName } : null;
    const row = where ? await repo.findOne({ where }) : null;
    if (!row) throw connectionDoesNotExist(arnOrName);
    await repo.delete({ id: row.id });
    return presentConnection(row);
  }

  /**
   * The credential of a connection, for an HTTP task of a job (the context is the job's starter). NotFound when no
   * connection has this ARN; Unavailable-like failure when it was sealed under another server key.
   */
  async credentialsFor(ctx: RequestContext, arn: string): Promise<ConnectionCredentials> {
    requireWorkflowAccess(ctx, 'write');
    const row = isConnectionArn(arn) ? await ctx.db.getRepository(WorkflowConnectionEntity).findOne({ where: { arn } }) : null;
    if (!row) throw connectionDoesNotExist(arn);
    const box = await this.identity.secretBox(ctx.db, ctx.config.secretKey);
    let secret: string;
    try {
      secret = box.open(row.secretCiphertext);
    } catch {
      // Sealed under another GATEWAY_SECRET_KEY: the connection cannot be used (an admin recreates it).
      throw new ValidationError(`Connection ${quoteInput(row.name)} cannot be used: its secret was sealed under another server key.`, {
        domainCode: WORKFLOW_CODES.CONNECTION_INVALID_STATE,
      });
    }
    const view = presentConnection(row);
    return { arn: row.arn, cacheKey: `${row.id}:${row.createdAt.getTime()}`, type: view.authorizationType, params: view.authParameters, secret };
  }
}
