// Who may do what (docs/ARCHITECTURE.md#roles-and-permissions), as pure functions over plain shapes: the server's
// policies (`modules/<m>/policy.ts`) enforce them and the web only hides what they would refuse.
// Kept free of zod, like roles.ts: the web's route guards load it early.
import { hasRole, type Role, Roles } from './roles.ts';

/** Who may call a route (docs/ARCHITECTURE.md#callers): anyone, or a caller of one of these kinds. */
export type AuthKind = 'public' | 'user' | 'visitor' | 'apiKey';

/** The person acting: their user id (the lowercased email), role and domain. */
export interface Actor {
  id: string;
  role: Role;
  domain: string;
}

/** A stored user as the rules see it. */
export type AccountRef = Actor;

/** Admin APIs (users, departments, integration, domain settings): Admin and above. */
export function isAdmin(actor: Pick<Actor, 'role'>): boolean {
  return hasRole(actor.role, 'Admin');
}

/** A SuperAdmin works across domains; everyone else inside their own. */
export function spansDomains(actor: Pick<Actor, 'role'>): boolean {
  return actor.role === 'SuperAdmin';
}

/**
 * The domains an actor administers, as data a query can filter by: every one (a SuperAdmin), their
 * own (an Admin), or none. The server's SQL scopes are built from it, so they say what
 * `administersDomain` says.
 */
export function administeredDomains(actor: Pick<Actor, 'role' | 'domain'>): 'all' | string[] {
  if (spansDomains(actor)) return 'all';
  return isAdmin(actor) ? [actor.domain] : [];
}

/** Administrative acts on one domain: an Admin's own, or any for a SuperAdmin. */
export function administersDomain(actor: Pick<Actor, 'role' | 'domain'>, domain: string): boolean {
  const domains = administeredDomains(actor);
  return domains === 'all' || domains.includes(domain);
}

/**
 * Whose account records an actor sees in lists and lookups: their own, and everyone of a domain
 * they administer (a SuperAdmin of that domain included; changing them is `managesUser`'s).
 */
export function seesUser(actor: Actor, target: Pick<AccountRef, 'id' | 'domain'>): boolean {
  return actor.id === target.id || administersDomain(actor, target.domain);
}

/** The roles an actor may give (docs/ARCHITECTURE.md#roles-and-permissions): an Admin up to Admin, a SuperAdmin any. */
export function assignableRoles(role: Role): Role[] {
  if (role === 'SuperAdmin') return [...Roles];
  if (role === 'Admin') return Roles.filter((r) => !hasRole(r, 'SuperAdmin'));
  return [];
}

/** A SuperAdmin manages everyone; an Admin the non-SuperAdmins of their own domain. */
export function managesUser(actor: Actor, target: AccountRef): boolean {
  if (spansDomains(actor)) return true;
  return actor.role === 'Admin' && actor.domain === target.domain && !hasRole(target.role, 'SuperAdmin');
}

/** What an actor may do to one user, field by field (the server checks each changed field). */
export function userActions(actor: Actor, target: AccountRef) {
  const self = actor.id === target.id;
  const manages = managesUser(actor, target);
  const superAdmin = spansDomains(actor);
  return {
    /** Reading the record: oneself, or someone one manages. */
    read: self || manages,
    rename: manages || self,
    edit: manages || self,
    changeRole: manages,
    /** Only a SuperAdmin moves themself (department repair is theirs alone). */
    changeDepartment: manages && (!self || superAdmin),
    changeActive: manages && !self,
    changeType: superAdmin,
    moveDomain: superAdmin,
    /** Terms of use are accepted by their user (a SuperAdmin may repair a record). */
    acceptEula: self || superAdmin,
    remove: manages && !self,
    invite: manages,
    revokeSessions: manages && !self,
  };
}

/** Whether `role` may be given to `target`: within the actor's grant, and nobody raises their own. */
export function mayGrantRole(actor: Actor, target: AccountRef, role: Role): boolean {
  if (!assignableRoles(actor.role).includes(role)) return false;
  return actor.id !== target.id || role === target.role || !hasRole(role, target.role);
}

/** Roles offered when editing `target`. */
export function editableRoles(actor: Actor, target: AccountRef): Role[] {
  return assignableRoles(actor.role).filter((role) => mayGrantRole(actor, target, role));
}

/** Santitos (docs/ARCHITECTURE.md#organisations-domains-departments-premium): everyone uses them; Editors and above create; authors and Admins edit. */
export function createsSantitos(actor: Pick<Actor, 'role'>): boolean {
  return hasRole(actor.role, 'Editor');
}

export function editsSantito(actor: Pick<Actor, 'id' | 'role'>, santito: { authorId: string }): boolean {
  return santito.authorId === actor.id || isAdmin(actor);
}

/** Admins see every santito of their domain, whatever its visibility. */
export function seesAllSantitos(actor: Pick<Actor, 'role'>): boolean {
  return isAdmin(actor);
}

/** AI providers and the domain's model settings: its Admins, or a SuperAdmin for any domain. */
export function managesProviders(actor: Actor, domain: string): boolean {
  return administersDomain(actor, domain);
}

/** A domain's MCP servers: its Admins, or a SuperAdmin for any domain. */
export function managesMcpServers(actor: Actor, domain: string): boolean {
  return administersDomain(actor, domain);
}

/** Whether a domain has memory on: its Admins, or a SuperAdmin for any domain. */
export function managesMemory(actor: Actor, domain: string): boolean {
  return administersDomain(actor, domain);
}

/** A domain's PII filter (docs/ARCHITECTURE.md#pii-filter): its Admins, or a SuperAdmin for any domain. */
export function managesPiiFilter(actor: Actor, domain: string): boolean {
  return administersDomain(actor, domain);
}

/** The audit log: Admins read their domain's, a SuperAdmin every domain's. */
export function readsAudit(actor: Actor, domain: string): boolean {
  return administersDomain(actor, domain);
}

/** Domain settings (terms of use version, …): as the audit log, an Admin's own domain or any. */
export function managesDomainSettings(actor: Actor, domain: string): boolean {
  return administersDomain(actor, domain);
}

/** An API key (docs/ARCHITECTURE.md#api-keys-and-the-openai-compatible-api): its owner, their domain's Admins, or a SuperAdmin. */
export function managesApiKey(actor: Actor, key: { userId: string; domain: string }): boolean {
  return actor.id === key.userId || administersDomain(actor, key.domain);
}

/** Every API key of a domain (the integration screen): its Admins, or a SuperAdmin. */
export function listsDomainApiKeys(actor: Actor, domain: string): boolean {
  return administersDomain(actor, domain);
}

/** Whether a domain allows public share links (docs/ARCHITECTURE.md#share-links): its Admins, or a SuperAdmin for any domain. */
export function managesSharing(actor: Actor, domain: string): boolean {
  return administersDomain(actor, domain);
}

/** Revoking a share link: its owner, or whoever administers its domain (an Admin's moderation). */
export function revokesShare(actor: Actor, share: { userId: string; domain: string }): boolean {
  return actor.id === share.userId || administersDomain(actor, share.domain);
}

/** Embeds (virtual accounts, docs/ARCHITECTURE.md#embedded-chat): a domain's Admins, or a SuperAdmin for any domain. */
export function managesVirtualAccounts(actor: Actor, domain: string): boolean {
  return administersDomain(actor, domain);
}

/** Attaching knowledge sources to santitos: whoever creates santitos sees the domain's sources. */
export function attachesKnowledge(actor: Pick<Actor, 'role'>): boolean {
  return createsSantitos(actor);
}

/** Knowledge sources (docs/ARCHITECTURE.md#knowledge): a domain's Admins, or a SuperAdmin for any domain. */
export function managesKnowledge(actor: Actor, domain: string): boolean {
  return administersDomain(actor, domain);
}

/** Single sign-on providers serve the whole instance (docs/ARCHITECTURE.md#single-sign-on): SuperAdmins only. */
export function managesSso(actor: Pick<Actor, 'role'>): boolean {
  return spansDomains(actor);
}

/** A domain's budgets (docs/ARCHITECTURE.md#usage-prices-and-budgets): its Admins, or a SuperAdmin for any domain. */
export function managesBudgets(actor: Actor, domain: string): boolean {
  return administersDomain(actor, domain);
}

/** A domain's usage reports (docs/ARCHITECTURE.md#usage-prices-and-budgets): its Admins, or a SuperAdmin for any domain. */
export function readsUsage(actor: Actor, domain: string): boolean {
  return administersDomain(actor, domain);
}

/** Model prices are instance-wide: Admins read them (to explain costs), a SuperAdmin sets them. */
export function readsPrices(actor: Pick<Actor, 'role'>): boolean {
  return isAdmin(actor);
}

export function setsPrices(actor: Pick<Actor, 'role'>): boolean {
  return spansDomains(actor);
}

/**
 * The person as the prompt library's rules see them (docs/ARCHITECTURE.md#prompt-library): an actor
 * with their department.
 */
export interface PromptActor extends Actor {
  department: string | null;
}

/** A prompt of the library as the rules see it. `departmentId` is set for department prompts only. */
export interface PromptRef {
  scope: 'private' | 'department' | 'domain';
  authorId: string;
  domain: string;
  departmentId: string | null;
}

/**
 * Who sees a prompt, inside its own domain only (a SuperAdmin of another domain included): its
 * author; a department prompt, the people of that department; a domain prompt, everyone.
 */
export function seesPrompt(actor: PromptActor, prompt: PromptRef): boolean {
  if (actor.domain !== prompt.domain) return false;
  if (prompt.authorId === actor.id || prompt.scope === 'domain') return true;
  return prompt.scope === 'department' && prompt.departmentId === actor.department;
}

/** Who writes a prompt of a scope: anyone their private ones, Editors their department's, Admins the domain's. */
export function writesPromptScope(actor: Pick<Actor, 'role'>, scope: PromptRef['scope']): boolean {
  if (scope === 'private') return true;
  return hasRole(actor.role, scope === 'department' ? 'Editor' : 'Admin');
}

/**
 * Who changes or deletes a prompt they see: a private one, its author; a department one, its author,
 * an Editor of that department or an Admin of the domain; a domain one, an Admin of the domain.
 */
export function editsPrompt(actor: PromptActor, prompt: PromptRef): boolean {
  if (!seesPrompt(actor, prompt)) return false;
  if (prompt.scope === 'private') return prompt.authorId === actor.id;
  if (prompt.scope === 'domain') return isAdmin(actor);
  return (
    prompt.authorId === actor.id ||
    isAdmin(actor) ||
    (hasRole(actor.role, 'Editor') && prompt.departmentId === actor.department)
  );
}

/**
 * Whether an actor may move a prompt to `scope` (a department prompt goes to the actor's own
 * department): they edit it and write that scope, and only its author makes it private.
 */
export function movesPrompt(actor: PromptActor, prompt: PromptRef, scope: PromptRef['scope']): boolean {
  if (!editsPrompt(actor, prompt)) return false;
  if (scope === prompt.scope) return true;
  return writesPromptScope(actor, scope) && (scope !== 'private' || prompt.authorId === actor.id);
}

/** Who asks for a model, as model access rules see them: a visitor of an embed has no role. */
export interface ModelUser {
  role: Role | null;
  departmentId: string | null;
}

/** A domain's model access rules (the shape of `ModelAccess`, kept free of zod here). */
export interface ModelAccessRules {
  rules: ReadonlyArray<{ model: string; roles?: readonly Role[]; departments?: readonly string[] }>;
  default: 'allow' | 'deny';
}

/** Rules in effect when a domain has set none: every model open. */
export const OPEN_MODEL_ACCESS: ModelAccessRules = { rules: [], default: 'allow' };

/**
 * Whether `who` may use the model `modelId` (`provider:model`) under a domain's rules
 * (docs/ARCHITECTURE.md#model-access), the one rule every path applies. A SuperAdmin may use every
 * model. The most specific matching rule decides: `provider:model` before `provider:*`; it opens
 * the model to the roles it names (exactly those) OR the departments it names, to nobody else. A
 * model no rule matches follows `default`. `kind` is the provider's kind, so `openai:*` also
 * matches the models of a configuration of kind openai, whose ids name the configuration.
 */
export function modelAllowed(
  access: ModelAccessRules,
  who: ModelUser,
  modelId: string,
  kind?: string,
): boolean {
  if (who.role === 'SuperAdmin') return true;
  const colon = modelId.indexOf(':');
  const provider = modelId.slice(0, colon);
  const name = modelId.slice(colon + 1);
  const providers = new Set([provider, kind ?? provider]);
  const matches = (pattern: string, exact: boolean) => {
    const i = pattern.indexOf(':');
    const rest = pattern.slice(i + 1);
    return providers.has(pattern.slice(0, i)) && (exact ? rest === name : rest === '*');
  };
  const rule =
    access.rules.find((r) => matches(r.model, true)) ?? access.rules.find((r) => matches(r.model, false));
  if (!rule) return access.default === 'allow';
  return (
    (who.role !== null && (rule.roles ?? []).includes(who.role)) ||
    (who.departmentId !== null && (rule.departments ?? []).includes(who.departmentId))
  );
}
