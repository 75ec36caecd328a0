import type { EmbeddedSession } from '@assistente/contracts';
import { embeddedSession } from '../../../lib/embeddedShapes.ts';

// The iframe's half of embed.js's postMessage protocol (docs/ARCHITECTURE.md#embedded-chat): the host page, on one of the
// embed's allowed sites, makes the visitor's session (only its Origin proves the site) and hands it
// over; this page takes messages from those origins only, and only from its parent.

/** The embed's allowed sites, written into the page by the server; null when the embed is not there. */
export function pageOrigins(doc: Document = document): string[] | null {
  const content = doc.querySelector('meta[name="assistente-embed-origins"]')?.getAttribute('content');
  if (!content) return null;
  try {
    const value: unknown = JSON.parse(content);
    return Array.isArray(value) ? value.filter((o): o is string => typeof o === 'string') : null;
  } catch {
    return null;
  }
}

export type HostMessage =
  | { type: 'session'; session: EmbeddedSession; replace: boolean }
  /** The host page could not make a session; `code` is the server's error code, when it said one. */
  | { type: 'session-error'; code: string | null }
  /** The host page's copy of the session (null: it has none), its answer to `ready`. */
  | { type: 'restore'; record: string | null };

/** A message of the host page, or null for anything else (another frame, another site, junk). */
export function readHostMessage(
  event: Pick<MessageEvent, 'origin' | 'source' | 'data'>,
  origins: readonly string[],
  parent: unknown,
): HostMessage | null {
  if (event.source !== parent || !origins.includes(event.origin)) return null;
  const data = event.data as { type?: unknown; session?: unknown; replace?: unknown } | null;
  if (data?.type === 'assistente:session') {
    const session = embeddedSession(data.session);
    return session ? { type: 'session', session, replace: data.replace === true } : null;
  }
  if (data?.type === 'assistente:session-error') {
    // embed.js passes the server's error body along: `{ error: { code, … } }`.
    const body = (data as { error?: { error?: { code?: unknown } } }).error;
    const code = body?.error?.code;
    return { type: 'session-error', code: typeof code === 'string' ? code : null };
  }
  if (data?.type === 'assistente:restore') {
    const record = (data as { record?: unknown }).record;
    return { type: 'restore', record: typeof record === 'string' ? record : null };
  }
  return null;
}

/**
 * Tells the host page something. The parent's origin is not readable from here, so the message is
 * addressed to each allowed site: the browser delivers it only to the one the parent is on.
 */
export function tellHost(
  parent: Window,
  origins: readonly string[],
  type: 'ready' | 'need-session' | 'close' | 'keep' | 'bar',
  extra: Record<string, unknown> = {},
): void {
  for (const origin of origins) parent.postMessage({ ...extra, type: `assistente:${type}` }, origin);
}
