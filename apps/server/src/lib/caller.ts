import { type AuthKind, hasRole, type Role } from '@assistente/contracts';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifySchema,
  FastifyTypeProvider,
  FastifyTypeProviderDefault,
  RawRequestDefaultExpression,
  RawServerBase,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import type { FastifyRequestType, ResolveFastifyRequestType } from 'fastify/types/type-provider.js';
import type { domains, users } from '../db/schema/index.ts';
import { forbidden, unauthenticated } from './errors.ts';

export type UserRow = typeof users.$inferSelect;
export type DomainRow = typeof domains.$inferSelect;

/** A signed-in person: decided by the verified id token and the stored account, nothing else. */
export interface UserCaller {
  kind: 'user';
  uid: string;
  sessionId: string;
  /** The stored user's email (lowercased: it is also the user id). */
  email: string;
  user: UserRow;
  domain: DomainRow;
  role: Role;
  /** The domain's effective premium flag (stored flag or PREMIUM_DOMAINS allow-list). */
  premium: boolean;
}

/** A visitor of an embedded chat (docs/ARCHITECTURE.md#callers): scoped to one virtual account, never signed in. */
export interface VisitorCaller {
  kind: 'visitor';
  virtualAccount: {
    id: string;
    agentId: string | null;
    allowedOrigins: readonly string[];
    allowAttachments: boolean;
    limits: { messagesPerMinute: number; messagesPerDay: number };
  };
  visitorId: string;
  /** The identity account (`va:{virtualAccountId}:{visitorId}`) and its session. */
  uid: string;
  sessionId: string;
  /**
   * The visitor's stored row (type `visitor`): what owns their chats, so the chats manager scopes
   * them exactly as it scopes a person's. Never listed among the domain's users.
   */
  user: UserRow;
  domain: DomainRow;
  premium: boolean;
}

/** A program holding an API key (docs/ARCHITECTURE.md#callers): acts as the key's user, within the key's scopes. */
export interface ApiKeyCaller {
  kind: 'apiKey';
  key: { id: string; name: string };
  user: UserRow;
  domain: DomainRow;
  role: Role;
  premium: boolean;
}

/**
 * Who is asking, whatever credential they hold (docs/ARCHITECTURE.md#callers). Services that serve
 * several kinds take this union and branch on `kind` in their policy; code for people only takes
 * `UserCaller`.
 */
export type Caller = UserCaller | VisitorCaller | ApiKeyCaller;
export type CallerKind = Caller['kind'];
export type CallerOf<K extends CallerKind> = Extract<Caller, { kind: K }>;

/**
 * Body of a `Channels.authInvalidate` message. `uid`/`email` drop one account's cached state;
 * `domain` drops every account of that domain (e.g. a domain was deactivated); `all` drops everything.
 */
export interface AuthInvalidateMessage {
  uid?: string;
  email?: string;
  domain?: string;
  all?: boolean;
}

/** Turns a bearer token into a caller of one kind. */
export interface CallerResolver<K extends CallerKind> {
  /**
   * `undefined`: the token is not this kind's credential; a throw: it is, and it is refused
   * (expired, revoked, account inactive, …).
   */
  resolve(token: string): Promise<CallerOf<K> | undefined>;
  /**
   * Optional fast path: the caller when everything needed is already cached and allows it,
   * synchronously; undefined otherwise (then `resolve` decides). Never looser than `resolve`.
   */
  peek?(token: string): CallerOf<K> | undefined;
}

/**
 * One resolver per caller kind, registered by the module that owns those accounts (accounts for
 * users; embedded chat for visitors and API access for keys, when they exist). The auth hook asks
 * it for the kinds a route declares.
 */
export class CallerResolvers {
  private readonly byKind = new Map<CallerKind, CallerResolver<CallerKind>>();

  register<K extends CallerKind>(kind: K, resolver: CallerResolver<K>): void {
    if (this.byKind.has(kind)) throw new Error(`a resolver for ${kind} callers is already registered`);
    this.byKind.set(kind, resolver as unknown as CallerResolver<CallerKind>);
  }

  /** The caller from the resolvers' caches alone, if one of the kinds has it ready. */
  peek(kinds: readonly CallerKind[], token: string): Caller | undefined {
    for (const kind of kinds) {
      const caller = this.byKind.get(kind)?.peek?.(token);
      if (caller) return caller;
    }
    return undefined;
  }

  /** The caller for the first declared kind whose resolver accepts the token; else the first refusal. */
  async resolve(kinds: readonly CallerKind[], token: string): Promise<Caller> {
    let refusal: unknown;
    for (const kind of kinds) {
      const resolver = this.byKind.get(kind);
      if (!resolver) continue;
      try {
        const caller = await resolver.resolve(token);
        if (caller) return caller;
      } catch (err) {
        refusal ??= err;
      }
    }
    throw refusal ?? unauthenticated();
  }
}

/** The caller kinds a route's `config.auth` admits (none for a public route). */
export function callerKinds(auth: AuthKind | readonly AuthKind[] | undefined): CallerKind[] {
  const list: readonly AuthKind[] = auth === undefined ? [] : typeof auth === 'string' ? [auth] : auth;
  return list.filter((k): k is CallerKind => k !== 'public');
}

/**
 * The caller a route's `config` admits (docs/ARCHITECTURE.md#request-path): `auth: 'user'` gives a
 * `UserCaller`, a list the union of its kinds, and `public` in it makes the caller optional. A route
 * declaring no `auth` (or code that does not know the route) sees `Caller | null`.
 */
export type CallerFor<Config> = Config extends { readonly auth: infer A }
  ? A extends 'public'
    ? null
    : A extends CallerKind
      ? CallerOf<A>
      : A extends readonly (infer K)[]
        ? CallerOf<Extract<K, CallerKind>> | ('public' extends K ? null : never)
        : Caller | null
  : Caller | null;

declare module 'fastify' {
  // Same type parameters as fastify's own declaration: merging needs them identical.
  interface FastifyRequest<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    RawServer extends RawServerBase = RawServerDefault,
    RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
    SchemaCompiler extends FastifySchema = FastifySchema,
    TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
    ContextConfig = ContextConfigDefault,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    RequestType extends FastifyRequestType = ResolveFastifyRequestType<
      TypeProvider,
      SchemaCompiler,
      RouteGeneric
    >,
  > {
    /**
     * Set by the auth hook (plugins/routes.ts) before the handler runs, typed by the route's
     * declared `config.auth`: the handler starts with its caller already narrowed.
     */
    caller: CallerFor<ContextConfig>;
  }
}

/** Route-level checks from `config`: the least role and the premium flag. */
export function checkRouteNeeds(caller: Caller, needs: { role?: Role; premium?: boolean }): void {
  if (needs.role && (caller.kind === 'visitor' || !hasRole(caller.role, needs.role))) {
    throw forbidden();
  }
  if (needs.premium && !caller.premium) {
    throw forbidden('This needs a premium organisation');
  }
}
