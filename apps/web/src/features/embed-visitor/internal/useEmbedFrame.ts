import type { EmbeddedConfig } from '@assistente/contracts';
import { useStore } from '@mantine/store';
import { useEffect, useMemo, useState } from 'react';
import {
  acceptEmbeddedSession,
  adoptEmbeddedSession,
  embeddedSession,
  embeddedVisitor,
  restoreEmbeddedSession,
  setEmbeddedKeeper,
} from '../../auth/index.ts';
import { pageOrigins, readHostMessage, tellHost } from './frame.ts';

export type EmbedFrameState =
  /** The embed is unknown or paused (the server sent no origins). */
  | { status: 'not-found' }
  /** Waiting for the host page's session. */
  | { status: 'waiting' }
  /** The host page could not make a session (its site is not allowed, a bad visitor signature…). */
  | { status: 'refused'; code: string | null }
  /** Opened by itself, not in an allowed site's frame: nobody can hand it a session. */
  | { status: 'unframed' }
  | { status: 'ready'; config: EmbeddedConfig; visitorKey: string };

/** The embedded page's session: kept from an earlier visit, or asked of the host page. */
export function useEmbedFrame(virtualAccountId: string): EmbedFrameState {
  const origins = useMemo(() => pageOrigins(), []);
  const visitor = useStore(embeddedVisitor);
  const session = useStore(embeddedSession);
  // Why the host page could not make a session (the server's error code), or false.
  const [refused, setRefused] = useState<{ code: string | null } | false>(false);
  // A new visitor (signed in on the host page) starts a new generation of the chat screens.
  const [generation, setGeneration] = useState(0);
  const framed = window.parent !== window;

  useEffect(() => {
    if (!origins) return;
    restoreEmbeddedSession(virtualAccountId);
    if (!framed) return;
    setEmbeddedKeeper((record) => tellHost(window.parent, origins, 'keep', { record }));
    const onMessage = (event: MessageEvent) => {
      const message = readHostMessage(event, origins, window.parent);
      if (!message) return;
      if (message.type === 'restore') {
        // The host's answer to `ready`: its copy, for when this frame's storage had none (blocked).
        if (embeddedSession.getState().idToken) return;
        if (!adoptEmbeddedSession(virtualAccountId, message.record)) {
          tellHost(window.parent, origins, 'need-session');
        }
        return;
      }
      if (message.type === 'session-error') {
        if (!embeddedSession.getState().idToken) setRefused({ code: message.code });
        return;
      }
      if (!message.replace && embeddedSession.getState().idToken) return;
      setRefused(false);
      acceptEmbeddedSession(virtualAccountId, message.session);
      if (message.replace) setGeneration((n) => n + 1);
    };
    window.addEventListener('message', onMessage);
    // The host answers with its copy of the session (or none); only then is a new one asked for.
    tellHost(window.parent, origins, 'ready');
    return () => {
      window.removeEventListener('message', onMessage);
      setEmbeddedKeeper(null);
    };
  }, [origins, virtualAccountId, framed]);

  // Refused by the server (paused embed, revoked visitor, expired renewal): ask for a new one.
  useEffect(() => {
    if (visitor.lost && origins && framed) tellHost(window.parent, origins, 'need-session');
  }, [visitor.lost, origins, framed]);

  if (!origins) return { status: 'not-found' };
  if (session.idToken && visitor.config && visitor.virtualAccountId === virtualAccountId) {
    return { status: 'ready', config: visitor.config, visitorKey: `${generation}` };
  }
  if (refused) return { status: 'refused', code: refused.code };
  if (!framed) return { status: 'unframed' };
  return { status: 'waiting' };
}

/**
 * While the embedded bar shows, it holds the panel's close control and embed.js hides its own
 * close bar (one bar, one close); the function asks the launcher to close. Null when not in a
 * launcher's frame.
 */
export function useHostClose(barShown: boolean): (() => void) | null {
  const origins = useMemo(() => pageOrigins(), []);
  const framed = window.parent !== window;
  useEffect(() => {
    if (!barShown || !origins || !framed) return;
    tellHost(window.parent, origins, 'bar', { shown: true });
    return () => tellHost(window.parent, origins, 'bar', { shown: false });
  }, [barShown, origins, framed]);
  return useMemo(
    () => (origins && framed ? () => tellHost(window.parent, origins, 'close') : null),
    [origins, framed],
  );
}
