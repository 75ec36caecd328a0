import { KnowledgeStreamEventSchema } from '@assistente/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { watchEventStream } from '../../../lib/http/sse.ts';
import { authorizedRequest } from '../../auth/index.ts';
import { KNOWLEDGE_PATH } from '../api.ts';
import { applyKnowledgeEvent, coalescedRefresh } from '../internal/liveCache.ts';
import { knowledgeKeys } from '../keys.ts';
import { knowledgeJournal } from './useKnowledge.ts';

/**
 * While mounted, follows the domain's knowledge events (sync progress, documents indexed) and
 * patches the cached sources and documents with them. On every (re)connection, once the server
 * says the stream is live, what is shown is read again: whatever changed while no stream was
 * open is not lost.
 */
export function useKnowledgeEvents(): void {
  const client = useQueryClient();
  useEffect(() => {
    const refresh = coalescedRefresh(client);
    const stop = watchEventStream({
      // Asked before each connection: a token refreshed since the last one is used.
      request: () => authorizedRequest(`${KNOWLEDGE_PATH}/events`, 'accounts'),
      onMessage(message) {
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          return;
        }
        const parsed = KnowledgeStreamEventSchema.safeParse(data);
        if (!parsed.success) return;
        const event = parsed.data;
        if (event.type === 'ready') {
          void client.invalidateQueries({ queryKey: knowledgeKeys.list, exact: true });
          void client.invalidateQueries({ queryKey: knowledgeKeys.allDocuments });
          return;
        }
        applyKnowledgeEvent(client, knowledgeJournal, refresh, event);
      },
    });
    return () => {
      stop();
      refresh.cancel();
    };
  }, [client]);
}
