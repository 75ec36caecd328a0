import { useCallback, useEffect, useState } from 'react';
import { HttpError } from '../../../lib/http/errors.ts';
import { setUi } from '../../../ui/uiStore.ts';
import type { AgentsController } from '../lib/agents.ts';
import { chatsApi } from './chatsApi.ts';

/** How opening a chat went: its messages loading, loaded (idle), failed, or no such chat for this caller. */
export type ChatLoadState = 'idle' | 'loading' | 'error' | 'not-found';

/** One page of a chat's messages into the store: the newest, or the page before `cursor`. */
async function loadPage(
  agents: AgentsController,
  chatId: string,
  cursor: string | null = null,
): Promise<void> {
  const page = await chatsApi().listMessages(chatId, cursor);
  agents.store.dispatch({
    type: 'page',
    chatId,
    messages: page.items,
    cursor: page.nextCursor,
    older: cursor !== null,
  });
}

/**
 * Opens a chat while it is on screen: keeps its frames, loads its newest messages (again when the
 * store says they went stale) and resumes an answer in progress.
 */
export function useOpenChat(agents: AgentsController, chatId: string | null): ChatLoadState {
  const [load, setLoad] = useState<ChatLoadState>('idle');
  useEffect(() => {
    if (!chatId) return;
    const release = agents.openChat(chatId);
    const known = agents.store.getState()[chatId];
    let live = true;
    if (known?.loaded) {
      agents.subscribe(chatId);
    } else {
      setLoad('loading');
      setUi({ loadingCurrentChat: true });
      loadPage(agents, chatId)
        .then(() => {
          if (!live) return;
          setLoad('idle');
          agents.subscribe(chatId);
        })
        .catch((error: unknown) => {
          if (!live) return;
          setLoad(error instanceof HttpError && error.status === 404 ? 'not-found' : 'error');
        })
        .finally(() => setUi({ loadingCurrentChat: false }));
    }
    const unstale = agents.onStale((id) => {
      if (id === chatId) void loadPage(agents, chatId).catch(() => undefined);
    });
    return () => {
      live = false;
      release();
      unstale();
    };
  }, [chatId, agents]);
  return load;
}

/** The page of messages before the oldest one shown, loaded on demand (one load at a time). */
export function useOlderMessages(
  agents: AgentsController,
  chatId: string | null,
  olderCursor: string | null,
): { loadingOlder: boolean; loadOlder: () => void } {
  const [loadingOlder, setLoadingOlder] = useState(false);
  const loadOlder = useCallback(() => {
    if (!chatId || !olderCursor || loadingOlder) return;
    setLoadingOlder(true);
    loadPage(agents, chatId, olderCursor)
      .catch(() => undefined)
      .finally(() => setLoadingOlder(false));
  }, [agents, chatId, olderCursor, loadingOlder]);
  return { loadingOlder, loadOlder };
}
