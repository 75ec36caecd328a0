import type { Services } from '../context.ts';
import type { ServicesBuiltBy } from '../lib/module.ts';
import { accountsModule } from './accounts/index.ts';
import { agentsModule } from './agents/index.ts';
import { apiKeysModule } from './apikeys/index.ts';
import { auditModule } from './audit/index.ts';
import { chatsModule } from './chats/index.ts';
import { codeassistModule } from './codeassist/index.ts';
import { embeddedModule } from './embedded/index.ts';
import { governanceModule } from './governance/index.ts';
import { identityModule } from './identity/index.ts';
import { knowledgeModule } from './knowledge/index.ts';
import { memoryModule } from './memory/index.ts';
import { promptsModule } from './prompts/index.ts';
import { providersModule } from './providers/index.ts';
import { santitosModule } from './santitos/index.ts';
import { settingsModule } from './settings/index.ts';
import { ssoModule } from './sso/index.ts';
import { storageModule } from './storage/index.ts';
import { toolsModule } from './tools/index.ts';
import { usageModule } from './usage/index.ts';

/**
 * Every module, in dependency order (docs/ARCHITECTURE.md#module-manifests): each one's services
 * are built after those listed before it, and closed before them. Adding a module is adding its
 * line. Accounts stays ahead of embedded, agents and knowledge: its caller states must hear an
 * account change on the bus before those subscribers re-check a caller.
 */
export const modules = [
  identityModule,
  auditModule,
  storageModule,
  accountsModule,
  providersModule,
  settingsModule,
  promptsModule,
  usageModule,
  knowledgeModule,
  santitosModule,
  embeddedModule,
  chatsModule,
  codeassistModule,
  ssoModule,
  memoryModule,
  toolsModule,
  agentsModule,
  apiKeysModule,
  governanceModule,
] as const;

/** Members of `Services` no module in the list builds: `never` (checked by modules.test.ts). */
export type UnbuiltServices = Exclude<keyof Services, ServicesBuiltBy<(typeof modules)[number]> | 'callers'>;
