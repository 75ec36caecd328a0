import type { Citation, Message } from '@assistente/contracts';
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { rendererChunk } from '../markdown/Markdown.tsx';
import { MessageItem } from './MessageItem.tsx';

beforeAll(async () => {
  await loadTestTexts();
  await rendererChunk.load();
});

const sources: Citation[] = [
  { title: 'Política de viagens', url: 'https://wiki.example.com/viagens', sourceId: 's1' },
  { title: 'Manual de reembolso', url: '/api/v1/integration/knowledge/s2/documents/d2/file', sourceId: 's2' },
  { title: 'Código de conduta', url: 'https://wiki.example.com/conduta', sourceId: 's3' },
];

function answer(content: string): Message {
  return {
    messageId: 'm1',
    chatId: 'c1',
    parentId: 'q1',
    role: 'assistant',
    content,
    status: 'complete',
    createdAt: '2026-01-01T00:00:00.000Z',
    citations: sources,
  };
}

const actions = { regenerate: vi.fn(), edit: vi.fn(), selectSibling: vi.fn() };
const renderAnswer = (content: string) =>
  renderWithProviders(<MessageItem message={answer(content)} actions={actions} busy={false} canAct />);

describe('an answer that draws on knowledge', () => {
  it('links each [n] to its source: a web page directly, an uploaded document to its entry', () => {
    const { container } = renderAnswer(
      'Reembolsos saem em 7 dias [2]; viagens pelo portal [1]. Em `[3]` não.',
    );
    const web = screen.getByRole('link', { name: '[1]' });
    expect(web.getAttribute('href')).toBe('https://wiki.example.com/viagens');
    expect(web.getAttribute('target')).toBe('_blank');
    const doc = screen.getByRole('link', { name: '[2]' });
    expect(doc.getAttribute('href')).toBe('#citation-m1-2');
    expect(container.querySelector('#citation-m1-2')?.textContent).toContain('Manual de reembolso');
    // Inside code a marker stays text.
    expect(screen.queryByRole('link', { name: '[3]' })).toBeNull();
  });

  it('lists only the cited sources, keeping their numbers', () => {
    renderAnswer('Reembolsos saem em 7 dias [2].');
    const list = screen.getByRole('region', { name: 'Fontes' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.textContent?.trim())).toEqual(['Manual de reembolso']);
    expect(items[0]?.getAttribute('value')).toBe('2');
  });

  it('lists every source when the answer cites none', () => {
    renderAnswer('Não encontrei nada específico.');
    const list = screen.getByRole('region', { name: 'Fontes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
  });
});
