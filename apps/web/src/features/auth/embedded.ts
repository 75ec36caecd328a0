import type { EmbeddedConfig, EmbeddedSession as VisitorSession } from '@assistente/contracts';
import { createStore } from '@mantine/store';
import { embeddedConfig } from '../../lib/embeddedShapes.ts';
import { IdentityError } from '../../lib/identity/errors.ts';
import { type PageCaller, productServices } from './services.ts';
import { embeddedSession, emptyEmbeddedSession } from './session.ts';

// The embedded page's visitor session (docs/ARCHITECTURE.md#embedded-chat). It lives in the iframe's own storage, one per
// embed, and never touches the account session: a visitor of a site is not whoever uses the app
// in another tab of the same browser.

interface Stored {
  idToken: string;
  refreshToken: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  config: EmbeddedConfig;
  /** The chat the visitor had open: reopening the chat on the site resumes it. */
  lastChatId?: string;
}

/** What this browser kept, if it is still a session (storage is another page's to write too). */
function parseStored(data: unknown): Stored | null {
  if (typeof data !== 'object' || data === null) return null;
  const o = data as Record<string, unknown>;
  const config = embeddedConfig(o.config);
  if (typeof o.idToken !== 'string' || typeof o.refreshToken !== 'string') return null;
  if (typeof o.expiresAt !== 'number' || !config) return null;
  const value: Stored = {
    idToken: o.idToken,
    refreshToken: o.refreshToken,
    expiresAt: o.expiresAt,
    config,
  };
  if (typeof o.lastChatId === 'string') value.lastChatId = o.lastChatId;
  return value;
}

/** Renew this long before the token runs out: a send must not race its expiry. */
const RENEW_BEFORE_MS = 60_000;

export interface EmbeddedVisitorState {
  virtualAccountId: string | null;
  config: EmbeddedConfig | null;
  /** The session was refused or could not be renewed: the host page is asked for another. */
  lost: boolean;
}

export const embeddedVisitor = createStore<EmbeddedVisitorState>({
  virtualAccountId: null,
  config: null,
  lost: false,
});

let stored: Stored | null = null;
/**
 * Where else the session is kept. Browsers that block third-party storage give the frame none
 * that outlives the page, so the host page's launcher keeps a copy (it made the session; it holds
 * nothing it did not have).
 */
let keeper: ((record: string | null) => void) | null = null;

export function setEmbeddedKeeper(keep: ((record: string | null) => void) | null): void {
  keeper = keep;
}
let renewing: Promise<string | null> | null = null;

const storageKey = (virtualAccountId: string) => `assistente.embedded.${virtualAccountId}`;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Storage blocked (third-party frame with cookies off): the session lasts as long as the page.
    return null;
  }
}

function publish(virtualAccountId: string, value: Stored | null): void {
  stored = value;
  embeddedSession.setState(
    value ? { idToken: value.idToken, apiUser: null, domain: null } : { ...emptyEmbeddedSession },
  );
  embeddedVisitor.setState({ virtualAccountId, config: value?.config ?? null, lost: false });
}

function save(virtualAccountId: string, value: Stored): void {
  publish(virtualAccountId, value);
  const record = JSON.stringify(value);
  keeper?.(record);
  try {
    storage()?.setItem(storageKey(virtualAccountId), record);
  } catch {
    // Full or blocked: the host page's copy (keeper) or the page's memory has it.
  }
}

/** Takes up the copy the host page kept; false when it is not a session. */
export function adoptEmbeddedSession(virtualAccountId: string, record: unknown): boolean {
  let value: Stored | null = null;
  try {
    value = typeof record === 'string' ? parseStored(JSON.parse(record)) : null;
  } catch {
    value = null;
  }
  if (!value) return false;
  save(virtualAccountId, value);
  return true;
}

/** Takes up the session this browser kept for the embed, if any; true when there was one. */
export function restoreEmbeddedSession(virtualAccountId: string): boolean {
  // Already held (each page of the frame asks): storage may be blocked, and must not undo it.
  if (stored && embeddedVisitor.getState().virtualAccountId === virtualAccountId) return true;
  let value: Stored | null = null;
  try {
    const raw = storage()?.getItem(storageKey(virtualAccountId));
    value = raw ? parseStored(JSON.parse(raw)) : null;
  } catch {
    value = null;
  }
  publish(virtualAccountId, value);
  return value !== null;
}

/** Keeps a session the host page made (through the launcher script) for this embed. */
export function acceptEmbeddedSession(virtualAccountId: string, session: VisitorSession): void {
  renewing = null;
  save(virtualAccountId, {
    idToken: session.idToken,
    refreshToken: session.refreshToken,
    expiresAt: Date.now() + Number(session.expiresIn) * 1000,
    config: session.virtualAccount,
  });
}

/** Remembers the chat the visitor has open, for the next time the chat is opened on the site. */
export function rememberEmbeddedChat(chatId: string): void {
  const { virtualAccountId } = embeddedVisitor.getState();
  if (stored && virtualAccountId && stored.lastChatId !== chatId)
    save(virtualAccountId, { ...stored, lastChatId: chatId });
}

/** The chat the visitor had open last (a new session, a new visitor: none). */
export function lastEmbeddedChat(): string | null {
  return stored?.lastChatId ?? null;
}

/** Forgets the session (refused by the server): the page asks the host for a new one. */
export function loseEmbeddedSession(): void {
  const { virtualAccountId } = embeddedVisitor.getState();
  if (!virtualAccountId) return;
  try {
    storage()?.removeItem(storageKey(virtualAccountId));
  } catch {
    // Nothing kept, nothing to forget.
  }
  keeper?.(null);
  publish(virtualAccountId, null);
  embeddedVisitor.setState({ ...embeddedVisitor.getState(), lost: true });
}

/**
 * The visitor's id token, renewed through the identity service when it is about to expire; null
 * without a session. A refused renewal (embed paused, visitor revoked) loses the session.
 */
export async function embeddedIdToken(): Promise<string | null> {
  if (!stored) return embeddedSession.getState().idToken;
  if (stored.expiresAt - Date.now() > RENEW_BEFORE_MS) return stored.idToken;
  const { virtualAccountId } = embeddedVisitor.getState();
  if (!virtualAccountId) return null;
  const current = stored;
  renewing ??= productServices()
    .identity.refreshIdToken(current.refreshToken)
    .then(
      (answer) => {
        if (stored !== current) return stored?.idToken ?? null;
        save(virtualAccountId, {
          ...current,
          idToken: answer.id_token,
          refreshToken: answer.refresh_token,
          expiresAt: Date.now() + Number(answer.expires_in) * 1000,
        });
        return answer.id_token;
      },
      (error: unknown) => {
        // Offline is not a refusal: keep the session and try again on the next call.
        if (error instanceof IdentityError && error.code === 'auth/network-request-failed') return null;
        if (stored === current) loseEmbeddedSession();
        return null;
      },
    )
    .finally(() => {
      renewing = null;
    });
  return renewing;
}

/** The embed's visitor as the caller of the embedded chat's page. */
export const visitorCaller: PageCaller = {
  context: async () => ({ idToken: await embeddedIdToken(), user: embeddedSession.getState().apiUser }),
  idToken: embeddedIdToken,
  refused: () => loseEmbeddedSession(),
  session: embeddedSession,
};
