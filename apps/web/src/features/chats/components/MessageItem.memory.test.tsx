import type { Message } from '@assistente/contracts';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { rendererChunk } from '../markdown/Markdown.tsx';
import { MessageItem } from './MessageItem.tsx';

// An answer given the person's memories says so (docs/ARCHITECTURE.md#memory), and the `remember`
// tool's step says what was kept.

beforeAll(async () => {
  await loadTestTexts();
  await rendererChunk.load();
});

const actions = { regenerate: vi.fn(), edit: vi.fn(), selectSibling: vi.fn(), approveTool: vi.fn() };

function answer(patch: Partial<Message> = {}): Message {
  return {
    messageId: 'm1',
    chatId: 'c1',
    parentId: 'q1',
    role: 'assistant',
    content: '- Curto\n- Direto',
    status: 'complete',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...patch,
  };
}

const show = (message: Message, props: { readOnly?: boolean } = {}) =>
  renderWithProviders(
    <MemoryRouter>
      <MessageItem message={message} actions={actions} busy={false} canAct {...props} />
    </MemoryRouter>,
  );

describe('an answer that used the person’s memories', () => {
  it('shows a quiet badge that opens Settings → Memory', () => {
    show(answer({ usedMemory: true }));
    const badge = screen.getByRole('link', { name: 'Usou suas memórias' });
    expect(badge.getAttribute('href')).toBe('/settings?tab=memory');
    expect(badge.getAttribute('data-testid')).toBe('used-memory');
  });

  it('shows none on an answer that did not, while it streams, or in a shared copy', () => {
    const { unmount } = show(answer());
    expect(screen.queryByTestId('used-memory')).toBeNull();
    unmount();
    const streaming = show(answer({ usedMemory: true, status: 'streaming' }));
    expect(screen.queryByTestId('used-memory')).toBeNull();
    streaming.unmount();
    show(answer({ usedMemory: true }), { readOnly: true });
    expect(screen.queryByTestId('used-memory')).toBeNull();
  });
});

describe('the remember step', () => {
  it('says what the assistant kept, in the reader’s words', () => {
    show(
      answer({
        content: 'Anotado.',
        parts: [
          {
            type: 'tool',
            toolCallId: 'call-1',
            tool: 'builtin:remember',
            title: 'Remember',
            input: { text: 'Prefere respostas em tópicos curtos' },
            status: 'done',
            output: 'Saved to the person’s memories.',
          },
        ],
      }),
    );
    const step = screen.getByTestId('tool-step');
    expect(step.textContent).toContain('Lembrou: “Prefere respostas em tópicos curtos”');
    expect(screen.getByRole('img', { name: 'Memória' })).toBeTruthy();
  });
});
