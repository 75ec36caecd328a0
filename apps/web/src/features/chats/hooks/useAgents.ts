import { useSyncExternalStore } from 'react';
import { productServices } from '../../auth/index.ts';
import { AgentsController, agentsController, stopAgents } from '../lib/agents.ts';
import type { ConnectionState } from '../lib/agentsSocket.ts';
import type { ThreadState } from '../lib/chatStore.ts';
import { visibleThread } from '../lib/thread.ts';

let watchingSession = false;

/** The tab's agents controller, connected on first use and closed on sign-out. */
function getAgents(): AgentsController {
  const controller = agentsController(() => {
    const { config, caller } = productServices();
    if (!watchingSession) {
      watchingSession = true;
      caller.session.subscribe((state) => {
        if (!state.idToken) stopAgents();
      });
    }
    // The page's caller: the account, or on the embedded chat's page its visitor, never the other.
    return new AgentsController({
      url: config.agentsWsUrl,
      getToken: () => caller.idToken(),
      onAccessDenied: (kind) => caller.refused(kind),
    });
  });
  controller.socket.start();
  return controller;
}

export function useAgents(): AgentsController {
  return getAgents();
}

export function useConnectionState(): ConnectionState {
  const agents = useAgents();
  return useSyncExternalStore(
    (listener) => agents.socket.onState(listener),
    () => agents.socket.connectionState,
  );
}

/** One chat's live state (undefined until its messages are loaded or it is made here). */
export function useThread(chatId: string | null): ThreadState | undefined {
  const agents = useAgents();
  return useSyncExternalStore(agents.store.subscribe, () =>
    chatId ? agents.store.getState()[chatId] : undefined,
  );
}

/** The last message of the branch this tab shows for a chat (what its export is of); null when not loaded. */
export function shownLeafId(chatId: string): string | null {
  const thread = getAgents().store.getState()[chatId];
  return thread ? visibleThread(thread).leafId : null;
}
