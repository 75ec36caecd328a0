import type { ModelPrice, PriceInput } from '@assistente/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { PriceDialog } from './PriceDialog.tsx';
import { PricesTab } from './PricesTab.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const WAIT = { timeout: 5000 };

const price = (patch: Partial<ModelPrice>): ModelPrice => ({
  id: 'p1',
  model: 'openai:gpt-4o-mini',
  inputPerMillion: 0.15,
  outputPerMillion: 0.6,
  currency: 'USD',
  effectiveFrom: '2026-03-01T12:00:00.000Z',
  setBy: 'op@acme.com',
  ...patch,
});

const chatPrice = price({});
const imagePrice = price({
  id: 'p2',
  model: 'openai:gpt-image-1',
  inputPerMillion: 5,
  outputPerMillion: 40,
  perImage: 0.04,
});

/** The price screen over fake routes; what each PUT sent is kept. */
function setup(items: ModelPrice[], history: ModelPrice[] = []) {
  const sent: { model: string; body: PriceInput }[] = [];
  const services = installFakeServices();
  signInSession({ role: 'SuperAdmin' });
  routeHttp(services.accountHttp, {
    'GET /api/v1/usage/prices': () => ({ body: { items } }),
    'GET /api/v1/models': () => ({ body: { models: [], defaultModel: null } }),
    'GET /api/v1/usage/prices/openai%3Agpt-image-1/history': () => ({ body: { items: history } }),
    'PUT /api/v1/usage/prices/openai%3Agpt-image-1': ({ body }) => {
      sent.push({ model: 'openai:gpt-image-1', body: body as PriceInput });
      return { body: { ...imagePrice, ...(body as PriceInput), id: 'p3' } };
    },
  });
  return { sent };
}

const field = (name: RegExp) => screen.getByRole('textbox', { name });

describe('the prices of image models', { timeout: 20_000 }, () => {
  it('shows the price per image beside the token prices of a model that has one', async () => {
    setup([chatPrice, imagePrice]);
    renderFeature(<PricesTab />, { path: '/usage' });
    const cards = await screen.findAllByTestId('price-card', {}, WAIT);
    const [chat, image] = cards as [HTMLElement, HTMLElement];
    expect(within(chat).queryByTestId('price-per-image')).toBeNull();
    expect(within(image).getByTestId('price-per-image').textContent).toBe('Imagem US$\u00a00,04');
  });

  it('sends the price per image a SuperAdmin types, and says it is for image models', async () => {
    const { sent } = setup([]);
    const user = userEvent.setup();
    renderFeature(<PricesTab />, { path: '/usage' });
    await user.click(await screen.findByTestId('price-add', {}, WAIT));
    const dialog = await screen.findByRole('dialog', {}, WAIT);
    expect(
      within(dialog).getByText('Só para modelos de imagem: o preço de cada imagem gerada.'),
    ).toBeTruthy();
    await user.type(within(dialog).getByTestId('price-model'), 'openai:gpt-image-1');
    await user.type(field(/^Entrada, por 1M/), '5');
    await user.type(field(/^Saída, por 1M/), '40');
    // Pasted: typed key by key, jsdom loses the caret after the currency prefix.
    await user.click(field(/^Por imagem/));
    await user.paste('0.042');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(sent).toHaveLength(1), WAIT);
    expect(sent[0]?.body).toEqual({
      inputPerMillion: 5,
      outputPerMillion: 40,
      perImage: 0.042,
      currency: 'USD',
    });
  });

  it('sends no price per image once it is cleared', async () => {
    const { sent } = setup([]);
    const user = userEvent.setup();
    renderFeature(
      <PriceDialog
        opened
        price={imagePrice}
        models={[]}
        onClose={() => undefined}
        onSaved={() => undefined}
      />,
    );
    const perImage = await screen.findByRole('textbox', { name: /^Por imagem/ }, WAIT);
    expect((perImage as HTMLInputElement).value).toBe('US$ 0.04');
    await user.clear(perImage);
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(sent).toHaveLength(1), WAIT);
    expect(sent[0]?.body).toEqual({ inputPerMillion: 5, outputPerMillion: 40, currency: 'USD' });
  });

  it('lists the price per image in a model’s history', async () => {
    setup([imagePrice], [imagePrice, price({ ...imagePrice, id: 'p0', perImage: undefined })]);
    const user = userEvent.setup();
    renderFeature(<PricesTab />, { path: '/usage' });
    await user.click(await screen.findByRole('button', { name: 'Ações de openai:gpt-image-1' }, WAIT));
    await user.click(await screen.findByRole('menuitem', { name: 'Histórico' }, WAIT));
    const table = await screen.findByTestId('price-history', {}, WAIT);
    expect(within(table).getByRole('columnheader', { name: 'Por imagem' })).toBeTruthy();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.lastElementChild?.previousElementSibling?.textContent)).toEqual([
      'US$\u00a00,04',
      '—',
    ]);
  });
});
