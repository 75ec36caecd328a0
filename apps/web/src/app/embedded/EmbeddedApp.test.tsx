import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../lib/i18n/index.ts';
import { loadTestTexts } from '../../test/render.tsx';
import { EmbeddedApp } from './EmbeddedApp.tsx';

beforeAll(async () => {
  await loadTestTexts();
  // The page's code is loaded the first time a test opens it: transforming it takes seconds on a
  // busy machine, which the tests should not wait on.
  await import('../../features/embed-visitor/EmbeddedChatsPage.tsx');
}, 60_000);

/** The embed's allowed sites, as the server writes them into the page of a known embed. */
function knownEmbed(): () => void {
  const meta = document.createElement('meta');
  meta.name = 'assistente-embed-origins';
  meta.content = JSON.stringify(['https://shop.example.com']);
  document.head.append(meta);
  return () => meta.remove();
}

function renderAt(url: string) {
  window.history.replaceState(null, '', url);
  return render(<EmbeddedApp updateAvailable={() => false} />);
}

afterEach(async () => {
  cleanup();
  await setLanguage('pt-BR');
});

describe('the embedded chat’s page', () => {
  it('shows an embed’s chat with no account session: opened outside a site, it says where the chat lives', async () => {
    const forget = knownEmbed();
    try {
      renderAt('/embedded/va-1/chats');
      expect(
        await screen.findByText('Este chat abre a partir do site que o oferece.', {}, { timeout: 10_000 }),
      ).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Entrar' })).toBeNull();
      expect(document.title).toBe('Conversas · Assistente');
      // The page's own progress bar, shown before any script ran, is gone.
      expect(document.getElementById('boot-progress')).toBeNull();
    } finally {
      forget();
    }
  });

  it('is in the language of its prefix', async () => {
    const forget = knownEmbed();
    try {
      await setLanguage('en', ['chat']);
      renderAt('/en/embedded/va-1/chats/c-1');
      expect(
        await screen.findByText('This chat opens from the site that offers it.', {}, { timeout: 10_000 }),
      ).toBeTruthy();
      expect(document.title).toBe('Chat · Assistente');
    } finally {
      forget();
    }
  });

  it('answers an unknown embed, a malformed id or another address with the 404 page, with nowhere to go back to', async () => {
    const cases = [
      { url: '/embedded/va-1/chats', known: false },
      // A known embed's page, but an id the route table refuses (docs/ARCHITECTURE.md#shell-routes-and-guards's validity check).
      { url: '/embedded/va-1/chats/bad%20id!', known: true },
      { url: '/embedded/va-1/other', known: true },
    ];
    for (const { url, known } of cases) {
      const forget = known ? knownEmbed() : () => {};
      try {
        renderAt(url);
        expect((await screen.findByTestId('error-page', {}, { timeout: 10_000 })).textContent, url).toContain(
          '404',
        );
        expect(screen.getByText('Página não encontrada')).toBeTruthy();
        // Inside another site's frame, the app's home would be a page the browser refuses to frame.
        expect(screen.queryByRole('button', { name: 'Voltar' })).toBeNull();
        expect(screen.queryByRole('link', { name: 'Voltar' })).toBeNull();
      } finally {
        cleanup();
        forget();
      }
    }
  });
});
