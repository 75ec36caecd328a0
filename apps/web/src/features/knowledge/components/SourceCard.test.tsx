import type { KnowledgeSource } from '@assistente/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { SourceCard } from './SourceCard.tsx';

beforeAll(async () => {
  await loadTestTexts();
});

const files = (over: Partial<KnowledgeSource> = {}): KnowledgeSource => ({
  sourceId: 's1',
  domain: 'acme.com',
  kind: 'files',
  displayName: 'Manual',
  status: 'idle',
  lastSyncAt: null,
  documents: 3,
  chunks: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

function renderCard(source: KnowledgeSource) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderWithProviders(
    <QueryClientProvider client={client}>
      <SourceCard source={source} onDelete={() => {}} />
    </QueryClientProvider>,
  );
}

describe('a files source card', () => {
  it('says it is indexing, with how many documents and a bar, while uploads are read', () => {
    renderCard(files({ indexing: 2 }));
    expect(screen.getByText('Indexando')).toBeTruthy();
    expect(screen.queryByText('Pronta')).toBeNull();
    expect(screen.getByTestId('knowledge-indexing').textContent).toContain('Indexando 2 documentos…');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('33');
  });

  it('is ready once nothing is left to index', () => {
    renderCard(files({ chunks: 9 }));
    expect(screen.getByText('Pronta')).toBeTruthy();
    expect(screen.queryByTestId('knowledge-indexing')).toBeNull();
  });
});

describe('a failed sync', () => {
  const failed = files({
    kind: 'confluence',
    status: 'error',
    error: 'Confluence refused the e-mail and API token',
    errorReason: { kind: 'unauthorised' },
  });

  it('says why in Portuguese, not in the server’s English', () => {
    renderCard(failed);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('O Confluence recusou o e-mail e o token de API');
    expect(alert.textContent).not.toContain('Confluence refused');
  });

  it('says why in Spanish', async () => {
    await loadTestTexts('es');
    try {
      renderCard(failed);
      expect(screen.getByRole('alert').textContent).toContain(
        'Confluence rechazó el correo y el token de API',
      );
    } finally {
      await loadTestTexts();
    }
  });

  it('falls back to the server’s line when an older row has no reason', () => {
    renderCard(files({ status: 'error', error: 'The sync failed' }));
    expect(screen.getByRole('alert').textContent).toContain('The sync failed');
  });
});
