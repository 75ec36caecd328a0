import type { VirtualAccount } from '@assistente/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { santito as santitoOf } from '../../../test/fixtures.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { EmbedDialog } from './EmbedDialog.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const santito = santitoOf({
  name: 'Vendedor',
  description: 'Não é o texto de boas-vindas do embed.',
  avatar: '🛍️',
  instructions: 'Venda.',
  starters: ['Qual o prazo de entrega?', 'Vocês têm loja física?'],
});

const embed: VirtualAccount = {
  virtualAccountId: 'va-1',
  domain: 'acme.com',
  displayName: 'Loja',
  color: '#7b1fa2',
  agentId: 'santito-1',
  allowedOrigins: ['https://shop.acme.test'],
  welcome: 'Olá! Pergunte sobre os produtos.',
  identity: 'anonymous',
  limits: { messagesPerMinute: 10, messagesPerDay: 200 },
  allowAttachments: true,
  active: true,
  stats: { visitors: 0, chats: 0, messages: 0 },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

beforeEach(() => {
  const services = installFakeServices();
  signInSession({ role: 'Admin' }, true);
  routeHttp(services.accountHttp, {
    'GET /api/v1/agent': () => ({ body: [santito], headers: { 'X-Total-Count': '1' } }),
  });
});

const preview = () => within(screen.getByTestId('embed-preview'));
const launcher = () => screen.getByTestId('embed-preview-launcher');
/** The launcher button lives in the preview's shadow root, as on the visitor's site. */
const launcherButton = () => launcher().shadowRoot?.querySelector<HTMLButtonElement>('.b') ?? null;

describe('EmbedDialog, the preview', { timeout: 20_000 }, () => {
  it('shows the launcher and the open chat as typed, before anything is saved', async () => {
    renderFeature(<EmbedDialog opened embed={null} onClose={() => {}} onCreated={() => {}} />);
    // Nothing typed yet: a placeholder name, the default colour, the organisation's default model.
    await waitFor(() => expect(launcherButton()?.textContent).toBe('Nome do chat'));
    expect(launcherButton()?.hidden).toBe(false);
    expect(launcher().style.getPropertyValue('--c')).toBe('#1565c0');

    fireEvent.change(screen.getByLabelText(/^Nome/), { target: { value: 'Loja Centro' } });
    await waitFor(() => expect(launcherButton()?.textContent).toBe('Loja Centro'));
    expect(preview().getByTestId('embedded-name').textContent).toBe('Loja Centro');
    expect(preview().getByTestId('chat-welcome-title').textContent).toBe('Loja Centro');

    fireEvent.change(screen.getByLabelText(/^Mensagem de boas-vindas/), {
      target: { value: 'Bem-vindo à loja!' },
    });
    expect(await preview().findByText('Bem-vindo à loja!')).toBeTruthy();

    // A colour being typed shows the default; a whole one shows at once, on the launcher and the bar.
    const colour = screen.getByLabelText(/^Cor/);
    fireEvent.change(colour, { target: { value: '#2e7d' } });
    await waitFor(() => expect(launcher().style.getPropertyValue('--c')).toBe(''));
    fireEvent.change(colour, { target: { value: '#2e7d32' } });
    await waitFor(() => expect(launcher().style.getPropertyValue('--c')).toBe('#2e7d32'));
    const page = preview().getByTestId('embedded-name').closest('header')?.parentElement;
    expect(page?.style.getPropertyValue('--embed-color')).toBe('#2e7d32');
  });

  it("shows the santito's avatar, name and starters, with the embed's welcome text", async () => {
    renderFeature(<EmbedDialog opened embed={embed} onClose={() => {}} onCreated={() => {}} />);
    expect(await preview().findByText('Qual o prazo de entrega?')).toBeTruthy();
    expect(preview().getByText('Vocês têm loja física?')).toBeTruthy();
    expect(preview().getByTestId('chat-welcome-title').textContent).toBe('Vendedor');
    expect(preview().getAllByText('🛍️').length).toBeGreaterThan(0);
    expect(preview().getByText('Olá! Pergunte sobre os produtos.')).toBeTruthy();
    expect(preview().queryByText(santito.description)).toBeNull();
    expect(launcherButton()?.textContent).toBe('Loja');
    expect(launcher().style.getPropertyValue('--c')).toBe('#7b1fa2');
    // Nothing in it can be used: it only shows.
    expect(screen.getByTestId('embed-preview').hasAttribute('inert')).toBe(true);
  });
});
