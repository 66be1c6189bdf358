// The identity domain's entities (TypeORM only).
export * from './access-token.entity';
export * from './account.entity';
export * from './membership.entity';
export * from './repository-collaborator.entity';
export * from './repository-total.entity';
export * from './repository.entity';
export * from './server-setting.entity';
export * from './workflow-access-key.entity';
