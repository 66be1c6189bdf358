// The calendar domain's entities (TypeORM only).
export * from './calendar-event-source.entity';
export * from './calendar-event.entity';
export * from './calendar-links.entity';
export * from './calendar-organizer.entity';
export * from './calendar-post-columns';
export * from './calendar-post.entity';
export * from './calendar-term.entity';
export * from './calendar-translation.entity';
export * from './calendar-venue.entity';
