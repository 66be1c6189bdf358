/**
 * The workflow client library's public entry point (`@graphql-domain-gateway/workflow-client`): the WorkflowClient of
 * spec 002 and what its users handle — commands, results, errors, credentials, paginators and waiters.
 */
export { WorkflowClient } from './client';
export type { WorkflowClientOptions, EndpointProvider } from './client';
export { Command } from './command';
export { HandlerList, LogicError, STEPS } from './handler-list';
export { InvalidArgumentError, ConfigurationError, WorkflowServiceException } from './errors';
export { ConnectionError, createNodeHttpHandler } from './http-handler';
export { Credentials, Token } from './types';
export type { CommandLike, CredentialProvider, Handler, HandlerStep, HttpHandler, HttpOptions, Middleware, Result, ResultMetadata, SignatureProvider, Signer, TokenProvider, WireRequest, WireResponse } from './types';
export { Service, defaultApiProvider, UnexpectedValueError } from './api';
export { ResultPaginator } from './paginator';
export { Waiter, WaiterError } from './waiter';
export { SignatureV4Signer, defaultSignatureProvider } from './signer';
export { NodeSha256 } from './node-sha256';
export type { ActivityHandler, ActivityTask, ActivityWorker, PollActivityOptions } from './activity-worker';
