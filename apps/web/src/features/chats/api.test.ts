import type { Message } from '@assistente/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { exportPath } from './api.ts';
import { AgentsController, agentsController, stopAgents } from './lib/agents.ts';
import { ROOT } from './lib/thread.ts';

const CHAT_ID = '11111111-1111-4111-8111-111111111111';

let clock = 0;
function message(id: string, parentId: string | null, role: Message['role']): Message {
  clock += 1;
  return {
    messageId: id,
    chatId: CHAT_ID,
    parentId,
    role,
    content: id,
    status: 'complete',
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString(),
  };
}

/** The tab's controller (never connected) with one chat loaded. */
function tabWith(messages: Message[]) {
  const agents = agentsController(
    () =>
      new AgentsController({
        url: 'ws://test',
        getToken: async () => 'token',
        createSocket: () => {
          throw new Error('no socket in this test');
        },
        connectivity: { isOnline: () => false, subscribe: () => () => {} },
      }),
  );
  agents.store.dispatch({ type: 'page', chatId: CHAT_ID, messages, cursor: null, older: false });
  return agents;
}

const query = (path: string) => Object.fromEntries(new URL(path, 'http://x').searchParams);

afterEach(() => {
  stopAgents();
});

describe('exportPath', () => {
  it('names the branch on screen and the screen’s language', () => {
    // q1 → a1; q1 edited (2/2) → a1'; back on 1/2: q2 → a2 (the newest); then 2/2 shown again.
    const q1 = message('q1', null, 'user');
    const a1 = message('a1', 'q1', 'assistant');
    const q1e = message('q1e', null, 'user');
    const a1e = message('a1e', 'q1e', 'assistant');
    const q2 = message('q2', 'a1', 'user');
    const a2 = message('a2', 'q2', 'assistant');
    const agents = tabWith([q1, a1, q1e, a1e, q2, a2]);
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(query(exportPath(CHAT_ID, 'md'))).toEqual({ format: 'md', locale: 'pt-BR', timeZone, leaf: 'a2' });

    agents.store.dispatch({ type: 'select', chatId: CHAT_ID, parentKey: ROOT, childId: 'q1e' });
    expect(exportPath(CHAT_ID, 'json')).toBe(
      `/api/v1/chats/${CHAT_ID}/export?format=json&locale=pt-BR&timeZone=${encodeURIComponent(timeZone)}&leaf=a1e`,
    );
  });

  it('takes an explicit leaf, language and time zone; sends no leaf for a chat this tab has not loaded', () => {
    tabWith([]);
    expect(query(exportPath(CHAT_ID, 'md', 'a1', 'en', 'America/Sao_Paulo'))).toEqual({
      format: 'md',
      locale: 'en',
      timeZone: 'America/Sao_Paulo',
      leaf: 'a1',
    });
    expect(
      query(exportPath('22222222-2222-4222-8222-222222222222', 'md', undefined, 'es', 'Europe/Madrid')),
    ).toEqual({
      format: 'md',
      locale: 'es',
      timeZone: 'Europe/Madrid',
    });
  });
});
