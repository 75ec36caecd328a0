import type { Chat, Message } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { toMarkdownExport } from './export.ts';

const chat: Chat = {
  chatId: 'c1',
  title: 'Contrato',
  agentId: null,
  pinned: false,
  params: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
} as Chat;
const answer = (model: string): Message =>
  ({
    messageId: 'm2',
    chatId: 'c1',
    parentId: 'm1',
    role: 'assistant',
    content: 'Pronto.',
    status: 'complete',
    createdAt: '2026-01-01T00:00:01.000Z',
    model,
  }) as Message;

describe('the Markdown export', () => {
  it('names an answer’s model by its provider’s name, never the provider’s internal id', () => {
    const labels = new Map([['p4088f0b7e819', 'Servidor da equipe']]);
    const md = toMarkdownExport(chat, [answer('p4088f0b7e819:qa-model')], new Date(), 'pt-BR', labels);
    expect(md).toContain('## Assistente (Servidor da equipe · qa-model)');
    expect(md).not.toContain('p4088f0b7e819');
  });

  it('names only the model when its provider is gone', () => {
    const md = toMarkdownExport(chat, [answer('p0ld:qa-model')], new Date(), 'en');
    expect(md).toContain('## Assistant (qa-model)');
  });

  it('lists the knowledge an answer cites, numbered, with links', () => {
    const cited: Message = {
      ...answer('p1:m'),
      citations: [
        {
          title: 'Férias [2026]',
          url: 'https://acme.atlassian.net/wiki/spaces/HR/pages/1/F%C3%A9rias',
          sourceId: 's1',
        },
        { title: 'Manual', url: '/api/v1/integration/knowledge/s2/documents/d (1)/file', sourceId: 's2' },
      ],
    };
    const md = toMarkdownExport(chat, [cited], new Date(), 'pt-BR');
    expect(md).toContain('**Fontes**');
    expect(md).toContain('1. [Férias 2026](https://acme.atlassian.net/wiki/spaces/HR/pages/1/F%C3%A9rias)');
    expect(md).toContain('2. [Manual](/api/v1/integration/knowledge/s2/documents/d%20%281%29/file)');
  });
});
