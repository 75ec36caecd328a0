import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  EMBEDDED_AUDIENCE,
  type EmbeddedConfig,
  type EmbeddedSession,
  type EmbeddedSessionRequest,
  type IdTokenClaims,
  VISITOR_SIGNATURE_WINDOW_SECONDS,
} from '@assistente/contracts';
import { type AppContext, Channels } from '../../context.ts';
import type { AuthInvalidateMessage, DomainRow, UserRow, VisitorCaller } from '../../lib/caller.ts';
import { invalidIdToken } from '../../lib/errors.ts';
import { randomBase62 } from '../../lib/random-id.ts';
import { isPremiumDomain } from '../accounts/caller-state.ts';
import { findDomainById, findVisitorUser, storeVisitorUser } from '../accounts/index.ts';
import type { SessionMeta } from '../identity/types.ts';
import {
  anonymousVisitorsOnly,
  embedNoLongerAvailable,
  invalidVisitorSignature,
  originNotAllowed,
  virtualAccountNotFound,
  visitorBlocked,
  visitorSessionEnded,
} from './errors.ts';
import { createVisitorLimiter } from './limits.ts';
import { VIRTUAL_ACCOUNT_CHANGED } from './service.ts';
import { type VirtualAccountRow, virtualAccountsStore } from './store.ts';
import { parseVisitorUid, visitorEmail, visitorUid } from './visitor-ids.ts';
import { type MintedVisitor, mintVisitorSession } from './visitor-sessions.ts';

/** The `aud` of a compact JWT, read without trusting it: it only picks which resolver verifies it. */
function audienceOf(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (!payload || payload.length > 4096) return undefined;
  try {
    const aud = (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { aud?: unknown }).aud;
    return typeof aud === 'string' ? aud : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `sig` is hex HMAC-SHA256(secret, `${id}.${ts}`), compared in constant time. */
function validVisitorSignature(secret: string, id: string, ts: number, sig: string): boolean {
  const expected = createHmac('sha256', secret).update(`${id}.${ts}`).digest();
  const given = Buffer.from(sig, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface EmbedState {
  row: VirtualAccountRow;
  domain: DomainRow;
  premium: boolean;
  agent: EmbeddedConfig['agent'];
}

const STATE_TTL_MS = 30_000;
const USERS_MAX = 20_000;

/** What a visitor may use: an active embed of an active premium domain. */
const usable = (s: EmbedState | undefined): s is EmbedState =>
  !!s && s.row.active && s.domain.active && s.premium;

/**
 * The visitors' side of embeds (docs/ARCHITECTURE.md#embedded-chat): sessions for a site's visitors, and the `visitor`
 * caller kind. An embed's state is cached briefly per replica and dropped on every change, so a
 * paused or deleted embed refuses its visitors' tokens at once.
 */
export function visitorsService(ctx: AppContext) {
  const store = virtualAccountsStore(ctx.db);
  const limiter = createVisitorLimiter(ctx);
  const embeds = new Map<string, { state: EmbedState | undefined; expires: number }>();
  const visitorUsers = new Map<string, UserRow>();
  /** Bumped on every drop, so a load that raced one is not cached stale. */
  let epoch = 0;

  const drop = (virtualAccountId?: string) => {
    epoch++;
    if (virtualAccountId) embeds.delete(virtualAccountId);
    else embeds.clear();
  };
  const unsubscribers = [
    ctx.bus.subscribe(VIRTUAL_ACCOUNT_CHANGED, (raw) => {
      const id = (raw as { virtualAccountId?: unknown } | undefined)?.virtualAccountId;
      drop(typeof id === 'string' ? id : undefined);
    }),
    // A domain deactivated, or its premium flag changed, reaches its embeds too.
    ctx.bus.subscribe(Channels.authInvalidate, (raw) => {
      const msg = (raw ?? {}) as AuthInvalidateMessage;
      if (msg.all || msg.domain) drop();
    }),
  ];

  async function load(id: string): Promise<EmbedState | undefined> {
    const row = await store.findById(id);
    if (!row) return undefined;
    const domain = await findDomainById(ctx.db, row.domainId);
    if (!domain) return undefined;
    let agent: EmbeddedConfig['agent'] = null;
    if (row.agentId) {
      const a = await ctx.services.santitos.findForEmbed(row.agentId);
      // An uploaded image needs a user's token to fetch: visitors get the emoji only.
      if (a) {
        agent = {
          _id: a.id,
          name: a.name,
          avatar: a.avatarContentType ? null : a.avatar,
          starters: [...a.starters],
        };
      }
    }
    return { row, domain, premium: isPremiumDomain(ctx.config, domain), agent };
  }

  async function embed(id: string): Promise<EmbedState | undefined> {
    const hit = embeds.get(id);
    if (hit && hit.expires > Date.now()) return hit.state;
    const at = epoch;
    const state = await load(id);
    if (at === epoch) {
      if (embeds.size >= 10_000) embeds.clear();
      embeds.set(id, { state, expires: Date.now() + STATE_TTL_MS });
    }
    return state;
  }

  function peekEmbed(id: string): EmbedState | undefined {
    const hit = embeds.get(id);
    return hit && hit.expires > Date.now() ? hit.state : undefined;
  }

  function configOf(s: EmbedState): EmbeddedConfig {
    return {
      virtualAccountId: s.row.id,
      displayName: s.row.displayName,
      color: s.row.color,
      welcome: s.row.welcome,
      allowAttachments: s.row.allowAttachments,
      agent: s.agent,
    };
  }

  /** The visitor's stored row, made on their first session; the display name follows a signed visitor's. */
  async function visitorUser(s: EmbedState, uid: string, displayName: string): Promise<UserRow> {
    const row = await storeVisitorUser(ctx.db, {
      email: visitorEmail(uid),
      displayName,
      domain: s.domain,
      embedName: s.row.displayName,
    });
    visitorUsers.delete(uid);
    visitorUsers.set(uid, row);
    return row;
  }

  async function storedVisitorUser(uid: string): Promise<UserRow | undefined> {
    const hit = visitorUsers.get(uid);
    if (hit) return hit;
    const row = await findVisitorUser(ctx.db, visitorEmail(uid));
    if (row) {
      if (visitorUsers.size >= USERS_MAX) visitorUsers.delete(visitorUsers.keys().next().value!);
      visitorUsers.set(uid, row);
    }
    return row;
  }

  function toCaller(s: EmbedState, claims: IdTokenClaims, user: UserRow): VisitorCaller | undefined {
    const parts = parseVisitorUid(claims.sub);
    if (!parts || parts.virtualAccountId !== s.row.id || !claims.sid) return undefined;
    return {
      kind: 'visitor',
      virtualAccount: {
        id: s.row.id,
        agentId: s.row.agentId,
        allowedOrigins: s.row.allowedOrigins,
        allowAttachments: s.row.allowAttachments,
        limits: s.row.limits,
      },
      visitorId: parts.visitorId,
      uid: claims.sub,
      sessionId: claims.sid,
      user,
      domain: s.domain,
      premium: s.premium,
    };
  }

  function sessionMeta(s: EmbedState, client: { ip: string | null; userAgent: string | null }) {
    return {
      name: s.row.displayName,
      ...(client.ip ? { ip: client.ip } : {}),
      ...(client.userAgent ? { userAgent: client.userAgent } : {}),
    };
  }

  /**
   * Stores a visitor's session with their row and the embed's visitor count (idempotent: requests
   * of one new visitor may race, on several replicas); false when the session cannot be live.
   */
  async function storeSession(
    s: EmbedState,
    subject: MintedVisitor,
    session: { sessionId: string; authTime: Date },
    meta: Omit<SessionMeta, 'kind'>,
    email: string | null,
  ): Promise<boolean> {
    await visitorUser(s, subject.uid, subject.displayName);
    const account = { ...subject, email: visitorEmail(subject.uid) };
    if (!(await ctx.identity.storeVisitorSession(account, session, meta))) return false;
    const parts = parseVisitorUid(subject.uid);
    if (parts) {
      await store.touchVisitor({
        virtualAccountId: s.row.id,
        visitorId: parts.visitorId,
        displayName: subject.displayName,
        email,
        signed: s.row.identity === 'signed',
      });
    }
    return true;
  }

  return {
    /**
     * POST /api/v1/embedded/{id}/session: checks the site (then calls `siteAllowed`), then the
     * visitor, then opens a session.
     */
    async startSession(
      id: string,
      origin: string | undefined,
      body: EmbeddedSessionRequest,
      client: { ip: string | null; userAgent: string | null },
      siteAllowed: () => void,
    ): Promise<EmbeddedSession> {
      const s = await embed(id);
      if (!usable(s)) throw virtualAccountNotFound();
      // Deny by default: no Origin (not a browser, or a privacy-stripped request) is no site at all.
      if (!origin || !s.row.allowedOrigins.includes(origin)) throw originNotAllowed();
      siteAllowed();

      let visitorId: string;
      let displayName = '';
      let email: string | null = null;
      if (s.row.identity === 'signed') {
        const v = body.visitor;
        if (!v) throw invalidVisitorSignature('This chat needs a visitor signed by the site');
        const skew = Math.abs(Date.now() / 1000 - v.ts);
        // Date.now() where seconds were meant: a thousand times now, the likeliest mistake of all.
        if (v.ts > (Date.now() / 1000) * 100) {
          throw invalidVisitorSignature('ts is in milliseconds; send Unix time in seconds');
        }
        if (skew > VISITOR_SIGNATURE_WINDOW_SECONDS) {
          throw invalidVisitorSignature('The visitor signature has expired; sign it again');
        }
        const secret = ctx.services.virtualAccounts.secretOf(s.row);
        if (!validVisitorSignature(secret, v.id, v.ts, v.sig)) {
          throw invalidVisitorSignature('The visitor signature does not match');
        }
        visitorId = v.id;
        // A site that leaves the name out keeps the one it gave before.
        displayName =
          v.name ?? (await ctx.identity.findAccount(visitorUid(s.row.id, v.id)))?.displayName ?? '';
        email = v.email ?? null;
      } else {
        // The server picks anonymous visitors' ids: a client naming one could take over another's chats.
        if (body.visitor) {
          throw anonymousVisitorsOnly();
        }
        visitorId = randomBase62(22);
      }

      const uid = visitorUid(s.row.id, visitorId);
      const subject = { uid, displayName };
      const tokens = mintVisitorSession(ctx.identity, subject);
      const meta = sessionMeta(s, client);
      // A signed visitor is stored at once, with what the site says of them; an anonymous one on
      // first use (`resolve`): this public call then writes nothing, however often it is made.
      if (s.row.identity === 'signed' && !(await storeSession(s, subject, tokens, meta, email))) {
        throw visitorBlocked();
      }
      return {
        idToken: tokens.idToken,
        refreshToken: tokens.refreshToken,
        expiresIn: tokens.expiresIn,
        user: { _id: uid, displayName },
        domain: { _id: s.domain.id, displayName: s.domain.displayName },
        virtualAccount: configOf(s),
      };
    },

    /** GET /api/v1/embedded/{id}/config, for the embed's own visitors (another embed's is 404). */
    async config(caller: VisitorCaller, id: string): Promise<EmbeddedConfig> {
      if (caller.virtualAccount.id !== id) throw virtualAccountNotFound();
      const s = await embed(id);
      if (!usable(s)) throw virtualAccountNotFound();
      return configOf(s);
    },

    /** Whether `origin` may show the embed: the launcher script asks before adding its button. */
    async allowsOrigin(id: string, origin: string | undefined): Promise<EmbedState | undefined> {
      const s = await embed(id);
      if (!usable(s) || !origin || !s.row.allowedOrigins.includes(origin)) return undefined;
      return s;
    },

    /** The launcher's look, for an allowed site: 404 for no embed, 403 for another site. */
    async launcher(id: string, origin: string | undefined): Promise<{ displayName: string; color: string }> {
      const s = await embed(id);
      if (!usable(s)) throw virtualAccountNotFound();
      if (!origin || !s.row.allowedOrigins.includes(origin)) throw originNotAllowed();
      return { displayName: s.row.displayName, color: s.row.color };
    },

    /** The embed as its pages need it (active, of an active premium domain), or undefined. */
    async usableEmbed(id: string): Promise<{ allowedOrigins: readonly string[] } | undefined> {
      const s = await embed(id);
      return usable(s) ? { allowedOrigins: s.row.allowedOrigins } : undefined;
    },

    /** Counts one message of the visitor against the embed's limits (429 RATE_LIMITED when over). */
    admitMessage(visitor: VisitorCaller, ip: string): Promise<void> {
      return limiter.admit(visitor, ip, 'message');
    },

    /**
     * Counts one chat the visitor starts against the embed's limits (429 RATE_LIMITED when over):
     * per visitor and per address, so new sessions from one place share the count.
     */
    admitChat(visitor: VisitorCaller, ip: string): Promise<void> {
      return limiter.admit(visitor, ip, 'chat');
    },

    /** Counts a chat started or a message sent through the embed, for the Admin screen. */
    async count(virtualAccountId: string, what: { chats?: number; messages?: number }): Promise<void> {
      try {
        await store.count(virtualAccountId, what);
      } catch (err) {
        ctx.log.warn({ err }, 'embedded: could not count usage');
      }
    },

    /** The `visitor` caller kind (docs/ARCHITECTURE.md#callers): a token with `aud: embedded` of a live embed. */
    resolver: {
      async resolve(token: string): Promise<VisitorCaller | undefined> {
        if (audienceOf(token) !== EMBEDDED_AUDIENCE) return undefined;
        const claims = await ctx.identity.verifyVisitorToken(token);

        if (!claims.sid) throw visitorSessionEnded();
        const status = await ctx.identity.sessionStatus(claims.sid);
        if (status === 'ended') throw visitorSessionEnded();
        const parts = parseVisitorUid(claims.sub);
        if (!parts) throw invalidIdToken();
        const s = await embed(parts.virtualAccountId);
        if (!usable(s)) throw embedNoLongerAvailable();
        // A minted session's first use stores it. Its token is an hour old at most, and a session
        // that ended since has a row saying so, which storing leaves alone.
        if (status === 'absent') {
          const subject = { uid: claims.sub, displayName: claims.name ?? '' };
          const session = { sessionId: claims.sid, authTime: new Date(claims.auth_time * 1000) };
          if (!(await storeSession(s, subject, session, { name: s.row.displayName }, null)))
            throw visitorSessionEnded();
        }
        const user = await storedVisitorUser(claims.sub);
        if (!user?.active) throw embedNoLongerAvailable();
        const caller = toCaller(s, claims, user);
        if (!caller) throw invalidIdToken();
        return caller;
      },
      peek(token: string): VisitorCaller | undefined {
        const claims = ctx.identity.peekVisitorToken(token);
        if (!claims?.sid || ctx.identity.peekSessionActive(claims.sid) !== true) return undefined;
        const parts = parseVisitorUid(claims.sub);
        const s = parts && peekEmbed(parts.virtualAccountId);
        const user = visitorUsers.get(claims.sub);
        if (!usable(s) || !user?.active) return undefined;
        return toCaller(s, claims, user);
      },
    },

    close(): void {
      for (const u of unsubscribers) u();
    },
  };
}

export type VisitorsService = ReturnType<typeof visitorsService>;
