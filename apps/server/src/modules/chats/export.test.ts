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

const base = { now: new Date(), locale: 'pt-BR', baseUrl: 'https://assistente.example.com' } as const;

describe('the Markdown export', () => {
  it('names an answer’s model by its provider’s name, never the provider’s internal id', () => {
    const labels = new Map([['p4088f0b7e819', 'Servidor da equipe']]);
    const md = toMarkdownExport(chat, [answer('p4088f0b7e819:qa-model')], {
      ...base,
      providerLabels: labels,
    });
    expect(md).toContain('## Assistente (Servidor da equipe · qa-model)');
    expect(md).not.toContain('p4088f0b7e819');
  });

  it('names only the model when its provider is gone', () => {
    const md = toMarkdownExport(chat, [answer('p0ld:qa-model')], { ...base, locale: 'en' });
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
    const md = toMarkdownExport(chat, [cited], base);
    expect(md).toContain('**Fontes**');
    expect(md).toContain('1. [Férias 2026](https://acme.atlassian.net/wiki/spaces/HR/pages/1/F%C3%A9rias)');
    // Absolute: the file is read later, with no page to resolve a path against.
    expect(md).toContain(
      '2. [Manual](https://assistente.example.com/api/v1/integration/knowledge/s2/documents/d%20%281%29/file)',
    );
  });

  it('lists the files an answer’s tools made, as absolute links', () => {
    const made: Message = {
      ...answer('p1:m'),
      parts: [
        {
          type: 'tool',
          toolCallId: 't1',
          tool: 'builtin:code_interpreter',
          title: 'Code interpreter',
          input: { lang: 'py', code: 'print(1)' },
          status: 'done',
          output: 'stdout:\n1',
          files: [
            {
              attachmentId: 'a1',
              chatId: 'c1',
              name: 'grafico.png',
              contentType: 'image/png',
              size: 10,
              createdAt: '2026-01-01T00:00:01.000Z',
              url: '/api/v1/chats/c1/attachments/a1',
            },
          ],
        },
      ],
    };
    const md = toMarkdownExport(chat, [made], { ...base, locale: 'en' });
    expect(md).toContain('**Files made**');
    expect(md).toContain('- [grafico.png](https://assistente.example.com/api/v1/chats/c1/attachments/a1)');
  });

  it('writes dates in the reader’s language and time zone, never as raw UTC timestamps', () => {
    const now = new Date('2026-03-12T17:05:00.000Z');
    const question = { ...answer('p1:m'), role: 'user', createdAt: '2026-03-12T16:58:00.000Z' } as Message;
    const md = toMarkdownExport(chat, [question], { ...base, now, timeZone: 'America/Sao_Paulo' });
    expect(md).toContain('_Exportado em 12 de março de 2026 às 14:05 (America/Sao_Paulo)_');
    expect(md).toContain('_12 de mar. de 2026, 13:58_');
    expect(md).not.toContain('2026-03-12T');
    const en = toMarkdownExport(chat, [question], { ...base, now, locale: 'en' });
    expect(en).toContain('_Exported March 12, 2026 at 5:05 PM (UTC)_');
    expect(en).toContain('_Mar 12, 2026, 4:58 PM_');
  });
});
