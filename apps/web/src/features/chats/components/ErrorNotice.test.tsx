import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

function show(code: string, message: string) {
  const router = createMemoryRouter([{ path: '/', element: <ErrorNotice code={code} message={message} /> }]);
  renderWithProviders(<RouterProvider router={router} />);
}

describe('ErrorNotice', () => {
  it('explains NO_PROVIDER in the user language and points an Admin to the settings', () => {
    installFakeServices();
    signInSession({ role: 'Admin' });
    show('NO_PROVIDER', 'No AI provider is configured');
    expect(screen.getByRole('alert').textContent).toContain('Nenhum provedor de IA está configurado');
    expect(screen.getByRole('link', { name: 'Configurar provedores de IA' }).getAttribute('href')).toBe(
      '/settings?tab=providers',
    );
  });

  it('shows no settings link to a Viewer', () => {
    installFakeServices();
    signInSession({ role: 'Viewer' });
    show('NO_PROVIDER', 'No AI provider is configured');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('says an API error in the reader’s language, with what was wrong with the input under it', () => {
    installFakeServices();
    signInSession();
    show('VALIDATION_FAILED', 'content: The message is empty');
    expect(screen.getByRole('alert').textContent).toContain('Alguns dados são inválidos');
    expect(screen.getByRole('alert').textContent).toContain('content: The message is empty');
  });

  it("falls back to the server's message only for a code it does not know", () => {
    installFakeServices();
    signInSession();
    show('SOMETHING_NEW', 'A future failure');
    expect(screen.getByRole('alert').textContent).toContain('A future failure');
  });
});
