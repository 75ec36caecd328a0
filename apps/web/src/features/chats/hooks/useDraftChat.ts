import { useCallback, useEffect, useRef, useState } from 'react';
import type { AgentsController } from '../lib/agents.ts';
import { chatsApi } from './chatsApi.ts';

/**
 * The chat a new conversation's files are uploaded to before its first message. It is a draft: out
 * of the lists until that message is stored (`keep`), deleted if the user leaves without sending it
 * (else every abandoned attachment left an empty "untitled" chat behind).
 */
export function useDraftChat(
  agents: AgentsController,
  chatId: string | null,
  agentId: string | null,
): { draftChatId: string | null; ensureChat: () => Promise<string>; keep: () => void } {
  // A new chat gets its id from the server on the first message (or the first attachment).
  const [draftChatId, setDraftChatId] = useState<string | null>(null);
  const effectiveId = chatId ?? draftChatId;
  const draftKept = useRef(false);
  // Files dropped together all ask for the chat before it exists: one creation serves them all
  // (two made two chats, and the cleanup of the first deleted it under its own upload).
  const creatingDraft = useRef<Promise<string> | null>(null);
  const ensureChat = useCallback((): Promise<string> => {
    if (effectiveId) return Promise.resolve(effectiveId);
    if (!creatingDraft.current) {
      const creating = chatsApi()
        .createChat({ ...(agentId ? { agentId } : {}) })
        .then((created) => {
          agents.store.dispatch({ type: 'track-new', chatId: created.chatId });
          draftKept.current = false;
          setDraftChatId(created.chatId);
          return created.chatId;
        });
      // A failed creation may be tried again by the next file.
      creating.catch(() => {
        if (creatingDraft.current === creating) creatingDraft.current = null;
      });
      creatingDraft.current = creating;
    }
    return creatingDraft.current;
  }, [effectiveId, agentId, agents]);
  useEffect(() => {
    if (!draftChatId) return;
    return () => {
      if (draftKept.current) return;
      chatsApi()
        .deleteChat(draftChatId)
        .catch(() => {
          // Offline or already gone: nothing more to do here (out of the lists, the server
          // purges it a day later).
        });
    };
  }, [draftChatId]);
  const keep = useCallback(() => {
    draftKept.current = true;
  }, []);
  return { draftChatId, ensureChat, keep };
}
