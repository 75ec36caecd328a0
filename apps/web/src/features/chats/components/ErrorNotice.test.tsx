import type { ProviderFailure } from '@assistente/contracts';
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

function show(code: string, message: string, reason?: ProviderFailure, resetsAt?: string) {
  const router = createMemoryRouter([
    {
      path: '/',
      element: <ErrorNotice code={code} message={message} reason={reason} resetsAt={resetsAt} />,
    },
  ]);
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

  it('says when a budget that refused the send resets, in the reader’s language and date format', () => {
    installFakeServices();
    signInSession();
    show('BUDGET_EXCEEDED', 'The user budget is used up until …', undefined, '2026-12-01T03:00:00.000Z');
    const text = screen.getByRole('alert').textContent ?? '';
    expect(text).toContain('O orçamento de uso foi atingido');
    const when = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date('2026-12-01T03:00:00.000Z'),
    );
    expect(screen.getByTestId('chat-error-resets').textContent).toBe(
      `Os envios voltam a funcionar em ${when}.`,
    );
  });

  it("falls back to the server's message only for a code it does not know", () => {
    installFakeServices();
    signInSession();
    show('SOMETHING_NEW', 'A future failure');
    expect(screen.getByRole('alert').textContent).toContain('A future failure');
  });

  it('tells an Admin a provider’s failure in the reader’s language, never the server’s English line', () => {
    installFakeServices();
    signInSession({ role: 'Admin' });
    show('PROVIDER_ERROR', 'The provider failed (HTTP 500); try again later.', {
      code: 'provider_failed',
      status: 500,
    });
    const alert = screen.getByRole('alert');
    expect(screen.getByTestId('chat-error-detail').textContent).toBe(
      'O provedor falhou (HTTP 500). Tente de novo mais tarde.',
    );
    expect(alert.textContent).not.toContain('The provider failed');
  });

  it('names the host a provider could not be reached at, and how', () => {
    installFakeServices();
    signInSession({ role: 'Admin' });
    show('PROVIDER_ERROR', 'The provider at 10.0.0.5 refused the connection', {
      code: 'unreachable',
      address: 'refused',
      host: '10.0.0.5',
    });
    expect(screen.getByTestId('chat-error-detail').textContent).toMatch(/^10\.0\.0\.5 recusou a conexão/);
  });

  it('names what the organisation’s PII filter found, in the reader’s language, never the server’s line', async () => {
    installFakeServices();
    signInSession();
    const blocked = 'Your organisation does not allow sending this: it contains email, cpf.';
    const router = createMemoryRouter([
      { path: '/', element: <ErrorNotice code="PII_BLOCKED" message={blocked} kinds={['email', 'cpf']} /> },
    ]);
    const view = renderWithProviders(<RouterProvider router={router} />);
    expect(screen.getByRole('alert').textContent).toContain(
      'Esta mensagem contém e-mail e CPF, que a organização não permite enviar.',
    );
    expect(screen.getByRole('alert').textContent).not.toContain(blocked);
    view.unmount();
    await loadTestTexts('en');
    try {
      renderWithProviders(<RouterProvider router={router} />);
      expect(screen.getByRole('alert').textContent).toContain('This message contains e-mail and CPF,');
    } finally {
      await loadTestTexts();
    }
  });

  it('says the generic PII text when a refusal names no kinds (an answer stored refused)', () => {
    installFakeServices();
    signInSession();
    show('PII_BLOCKED', 'Your organisation does not allow sending this: it contains cpf.');
    expect(screen.getByRole('alert').textContent).toContain(
      'Esta mensagem contém dados que a organização não permite enviar.',
    );
  });

  it('shows no English line for an older answer stored without a reason', () => {
    installFakeServices();
    signInSession({ role: 'Admin' });
    show('PROVIDER_ERROR', 'The provider failed (HTTP 500); try again later.');
    expect(screen.getByRole('alert').textContent).not.toContain('The provider failed');
  });
});
