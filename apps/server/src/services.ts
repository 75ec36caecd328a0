import type { AppContext } from './context.ts';
import { CallerResolvers } from './lib/caller.ts';
import { CallerStates } from './modules/accounts/caller-state.ts';
import { accountsService, organisationService } from './modules/accounts/index.ts';
import { type AgentsService, createAgentsService } from './modules/agents/index.ts';
import { type ApiKeysService, apiKeysService, completionsService } from './modules/apikeys/index.ts';
import { auditService } from './modules/audit/index.ts';
import { chatsService } from './modules/chats/index.ts';
import { codeassistService } from './modules/codeassist/index.ts';
import { virtualAccountsService, visitorsService } from './modules/embedded/index.ts';
import { knowledgeService } from './modules/knowledge/index.ts';
import { createProvidersService } from './modules/providers/index.ts';
import { santitosService } from './modules/santitos/index.ts';
import { settingsService } from './modules/settings/index.ts';
import { createSsoFlow, type SsoFlow, type SsoService, ssoService } from './modules/sso/index.ts';
import { createStorage } from './modules/storage/index.ts';

/** Every module's service, one instance each per app (docs/ARCHITECTURE.md#server-modules). */
export interface Services {
  /** Bearer token → caller, one resolver per caller kind (registered by the owning module). */
  callers: CallerResolvers;
  /** The accounts module's cached "who is this identity?" (users, domains), dropped over the bus. */
  callerStates: CallerStates;
  storage: ReturnType<typeof createStorage>;
  providers: ReturnType<typeof createProvidersService>;
  accounts: ReturnType<typeof accountsService>;
  organisation: ReturnType<typeof organisationService>;
  settings: ReturnType<typeof settingsService>;
  audit: ReturnType<typeof auditService>;
  santitos: ReturnType<typeof santitosService>;
  knowledge: ReturnType<typeof knowledgeService>;
  chats: ReturnType<typeof chatsService>;
  codeassist: ReturnType<typeof codeassistService>;
  /** Personal API keys; registers the `apiKey` caller kind (docs/ARCHITECTURE.md#callers). */
  apiKeys: ApiKeysService;
  /** The OpenAI-compatible API's model calls (through `agents`, where this process hosts them). */
  completions: ReturnType<typeof completionsService>;
  /** Embeds (docs/ARCHITECTURE.md#embedded-chat): Admin management, and the visitors' side of them. */
  virtualAccounts: ReturnType<typeof virtualAccountsService>;
  /** Embeds' visitors: their sessions and the `visitor` caller kind. */
  visitors: ReturnType<typeof visitorsService>;
  /** Single sign-on providers (docs/ARCHITECTURE.md#single-sign-on), and the OpenID Connect flow that uses them. */
  sso: SsoService;
  ssoFlow: SsoFlow;
  /** Only where this process hosts the agents websocket: it starts the model-call threads. */
  agents?: AgentsService;
}

/**
 * Builds every service into `ctx.services`, in dependency order: a service may use those built
 * before it (through `ctx.services`) and nothing builds one elsewhere.
 */
export function buildServices(ctx: AppContext, opts: { agents: boolean }): Services {
  const services = ctx.services;
  // First: its bus subscription must drop an account's state before anyone re-checks it.
  services.callerStates = new CallerStates(ctx);
  services.callers = new CallerResolvers();
  services.storage = createStorage(ctx.config);
  services.providers = createProvidersService(ctx);
  services.accounts = accountsService(ctx);
  services.organisation = organisationService(ctx);
  services.settings = settingsService(ctx);
  services.audit = auditService(ctx);
  services.knowledge = knowledgeService(ctx);
  services.santitos = santitosService(ctx);
  services.chats = chatsService(ctx);
  services.codeassist = codeassistService(ctx);
  services.apiKeys = apiKeysService(ctx);
  services.virtualAccounts = virtualAccountsService(ctx);
  services.visitors = visitorsService(ctx);
  services.callers.register('visitor', services.visitors.resolver);
  services.sso = ssoService(ctx);
  services.ssoFlow = createSsoFlow(ctx, services.sso);
  if (opts.agents) services.agents = createAgentsService(ctx);
  services.completions = completionsService(ctx);
  return services;
}

/** Closes what the services hold (threads, sockets, subscriptions), last built first. */
export async function closeServices(services: Partial<Services>): Promise<void> {
  await services.agents?.close();
  await services.knowledge?.close();
  await services.providers?.close();
  await services.ssoFlow?.close();
  services.storage?.close();
  services.apiKeys?.close();
  services.visitors?.close();
  services.callerStates?.close();
}
