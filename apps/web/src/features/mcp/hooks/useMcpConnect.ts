import type { McpServer } from '@assistente/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { authServices } from '../../auth/index.ts';
import { createMcpApi } from '../api.ts';
import {
  connectChannel,
  connectOutcomeIn,
  connectOutcomeOf,
  MCP_CONNECTED_HEARD,
  type McpConnectOutcome,
} from '../connectMessage.ts';
import { mcpKeys } from './useMcpServers.ts';

const POPUP_NAME = 'assistente-mcp-connect';
const POPUP_FEATURES = 'popup,width=520,height=680';
/** A popup closed without a word (the person closed it, or the sign-in page cut it off). */
const CLOSED_POLL_MS = 500;

/**
 * The end of a connection: the popup's word, `already` (connected before), `blocked` (the browser
 * refused the popup) or `closed` (closed before it said anything).
 */
export type ConnectResult = McpConnectOutcome | 'already' | 'blocked' | 'closed';

/** The server forgets a sign-in that has not come back after 10 minutes. */
const SIGN_IN_MS = 10 * 60_000;

/**
 * Waits for the popup to say how it ended (as its opener, or on the channel). A popup that looks
 * closed may only have lost its opener on the sign-in page: `onClosed` runs, and the channel is
 * still listened to until the sign-in expires.
 */
function waitForPopup(
  popup: Window,
  signal: AbortSignal,
  onClosed: () => void,
): Promise<McpConnectOutcome | 'closed'> {
  return new Promise((resolve) => {
    const channel = connectChannel();
    let done = false;
    const finish = (result: McpConnectOutcome | 'closed') => {
      if (done) return;
      done = true;
      window.removeEventListener('message', onMessage);
      window.clearInterval(poll);
      window.clearTimeout(expiry);
      signal.removeEventListener('abort', onAbort);
      channel?.close();
      resolve(result);
    };
    const heard = (outcome: McpConnectOutcome) => {
      channel?.postMessage({ type: MCP_CONNECTED_HEARD });
      finish(outcome);
    };
    const onMessage = (event: MessageEvent) => {
      const outcome = connectOutcomeOf(event);
      if (outcome) heard(outcome);
    };
    const onAbort = () => finish('closed');
    if (channel) {
      channel.onmessage = (event: MessageEvent) => {
        const outcome = connectOutcomeIn(event.data);
        if (outcome) heard(outcome);
      };
    }
    const poll = window.setInterval(() => {
      if (!popup.closed) return;
      window.clearInterval(poll);
      if (channel) onClosed();
      else finish('closed');
    }, CLOSED_POLL_MS);
    const expiry = window.setTimeout(() => finish('closed'), SIGN_IN_MS);
    window.addEventListener('message', onMessage);
    signal.addEventListener('abort', onAbort);
  });
}

/**
 * The one connection under way in this page: a popup (and the channel) is shared, so starting
 * another ends the wait for the first, which would otherwise take the second's outcome for its own.
 */
let active: AbortController | null = null;

/**
 * Connects the caller's account to an OAuth server: asks where to sign in, opens that in a popup,
 * and once the popup says how it went (or closes) lists the servers and tools again. `onDone` is
 * not called for a popup the person closed before connecting.
 */
export function useMcpConnect(handlers: {
  onDone: (server: McpServer, result: Exclude<ConnectResult, 'closed'>) => void;
  onError: (server: McpServer, error: unknown) => void;
}) {
  const client = useQueryClient();
  const [connecting, setConnecting] = useState(false);
  const pending = useRef<AbortController | null>(null);
  useEffect(() => () => pending.current?.abort(), []);

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: mcpKeys.list }),
      client.invalidateQueries({ queryKey: mcpKeys.tools }),
    ]);

  const connect = async (server: McpServer) => {
    active?.abort();
    const controller = new AbortController();
    active = controller;
    pending.current = controller;
    setConnecting(true);
    try {
      const { authorizationUrl } = await createMcpApi(authServices().accountHttp).connect(server.id);
      let result: ConnectResult = 'already';
      if (authorizationUrl !== null) {
        const popup = window.open(authorizationUrl, POPUP_NAME, POPUP_FEATURES);
        const closed = () => {
          // Closed by the person, or only cut off from us: show what the server says meanwhile.
          setConnecting(false);
          void refresh();
        };
        result = popup ? await waitForPopup(popup, controller.signal, closed) : 'blocked';
      }
      if (controller.signal.aborted) return;
      await refresh();
      if (result === 'closed') {
        // No word from the popup: the list says whether it connected.
        const now = client.getQueryData<McpServer[]>(mcpKeys.list)?.find((s) => s.id === server.id);
        if (!now?.connected) return;
        result = 'connected';
      }
      if (!controller.signal.aborted) handlers.onDone(server, result);
    } catch (failure) {
      if (!controller.signal.aborted) handlers.onError(server, failure);
    } finally {
      if (active === controller) active = null;
      if (pending.current === controller) {
        pending.current = null;
        setConnecting(false);
      }
    }
  };

  return { connect, connecting };
}
