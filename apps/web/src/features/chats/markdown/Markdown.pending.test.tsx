import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { Markdown, rendererChunk } from './Markdown.tsx';

beforeAll(async () => {
  await loadTestTexts();
});

// A module of its own: here the renderer's chunk has not been loaded yet.
describe('Markdown before its renderer has loaded', () => {
  it('shows the answer as plain text at once, then renders it once the chunk arrives', async () => {
    expect(rendererChunk.get()).toBeNull();
    const { container } = renderWithProviders(
      <Markdown content={'**negrito** e `código`\n\n<img src="x" onerror="window.__xss = 1">'} />,
    );
    // The first paint: the text as it is, as inert as a user's message.
    const pending = container.querySelector('[data-markdown="pending"]');
    expect(pending?.textContent).toBe('**negrito** e `código`\n\n<img src="x" onerror="window.__xss = 1">');
    expect(container.querySelector('strong, code, img')).toBeNull();

    // The renderer is fetched after that paint, and the answer is rendered in place. Its first
    // import is transformed cold here: seconds on a loaded machine, beyond waitFor's 1 s default.
    await waitFor(() => expect(container.querySelector('strong')?.textContent).toBe('negrito'), {
      timeout: 20_000,
    });
    expect(container.querySelector('code')?.textContent).toBe('código');
    expect(container.querySelector('[data-markdown="pending"]')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(screen.queryByText(/onerror/)).toBeTruthy();
    expect(rendererChunk.get()).not.toBeNull();
  }, 30_000);
});
