import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { rendererChunk } from '../markdown/Markdown.tsx';
import { Composer } from './Composer.tsx';

beforeAll(async () => {
  await loadTestTexts();
});

// A module of its own: here nothing has fetched the Markdown renderer yet.
describe('Composer and the Markdown renderer', () => {
  it('starts fetching the renderer once the user types, before any answer needs it', async () => {
    renderWithProviders(
      <Composer offline={false} busy={false} onSend={vi.fn(() => true)} onStop={vi.fn()} />,
    );
    expect(rendererChunk.get()).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'Mensagem' }), 'O');
    await waitFor(() => expect(rendererChunk.get()).not.toBeNull());
  });
});
