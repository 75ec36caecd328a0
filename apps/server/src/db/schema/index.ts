export * from './accounts.ts';
export * from './audit.ts';
export * from './chats.ts';
export * from './identity.ts';
export * from './jobs.ts';
export * from './providers.ts';
