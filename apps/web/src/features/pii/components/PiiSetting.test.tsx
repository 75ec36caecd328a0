import type { PiiSettings } from '@assistente/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { popup } from '../../../ui/popup/popupStore.ts';
import { PiiSetting } from './PiiSetting.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

/** The settings route over a value kept here; `fail` refuses the next save. */
function serve(state: { settings: PiiSettings }, fail?: { status: number; code: string }) {
  const services = installFakeServices();
  signInSession({ role: 'Admin' });
  const sent: unknown[] = [];
  routeHttp(services.accountHttp, {
    'GET /api/v1/settings/pii': () => ({ body: state.settings }),
    'PUT /api/v1/settings/pii': (request) => {
      sent.push(request.body);
      if (fail) return { ...fail, message: 'refused' };
      state.settings = request.body as PiiSettings;
      return { body: state.settings };
    },
  });
  renderFeature(<PiiSetting domain="acme.com" />);
  return sent;
}

const radio = (name: string) =>
  screen.getByRole('radio', { name: new RegExp(`^${name}`) }) as HTMLInputElement;
const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;

describe('PiiSetting', { timeout: 30_000 }, () => {
  it('shows the saved mode and kinds, and saves a change once it is one', async () => {
    const sent = serve({ settings: { mode: 'off', kinds: ['credential', 'email', 'cpf'] } });
    await screen.findByRole('radio', { name: /^Desligado/ }, { timeout: 10_000 });
    expect(radio('Desligado').checked).toBe(true);
    expect(box('CPF').checked).toBe(true);
    expect(box('CNPJ').checked).toBe(false);
    const save = screen.getByRole('button', { name: 'Salvar filtro' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    fireEvent.click(radio('Substituir'));
    fireEvent.click(box('CNPJ'));
    fireEvent.click(box('senha ou chave de acesso'));
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    await waitFor(() => expect(sent).toHaveLength(1));
    // Sent in the contract's order, whatever the clicks'.
    expect(sent[0]).toEqual({ mode: 'redact', kinds: ['email', 'cpf', 'cnpj'] });
    await waitFor(() =>
      expect(popup.store.getState()).toMatchObject({
        status: 'success',
        title: 'Filtro de dados pessoais salvo',
      }),
    );
    await waitFor(() => expect(save.disabled).toBe(true));
  });

  it('asks for at least one kind and sends nothing without one', async () => {
    const sent = serve({ settings: { mode: 'block', kinds: ['cpf'] } });
    await screen.findByRole('radio', { name: /^Recusar/ }, { timeout: 10_000 });
    fireEvent.click(box('CPF'));
    expect(screen.getByText('Escolha ao menos um tipo.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Salvar filtro' }) as HTMLButtonElement).disabled).toBe(true);
    expect(sent).toEqual([]);
  });

  it('says so when saving fails, keeping the choice', async () => {
    serve({ settings: { mode: 'off', kinds: ['cpf'] } }, { status: 403, code: 'FORBIDDEN' });
    await screen.findByRole('radio', { name: /^Desligado/ }, { timeout: 10_000 });
    fireEvent.click(radio('Recusar'));
    fireEvent.click(screen.getByRole('button', { name: 'Salvar filtro' }));
    await waitFor(() =>
      expect(popup.store.getState()).toMatchObject({
        status: 'error',
        title: 'Não foi possível salvar o filtro',
      }),
    );
    expect(radio('Recusar').checked).toBe(true);
  });
});
