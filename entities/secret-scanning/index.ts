// The secret-scanning domain's entities (TypeORM only).
export * from './push-protection-placeholder.entity';
export * from './secret-scanning-alert.entity';
export * from './secret-scanning-content.entity';
export * from './secret-scanning-counter.entity';
export * from './secret-scanning-location.entity';
export * from './secret-scanning-scan.entity';
export * from './secret-scanning-total.entity';
