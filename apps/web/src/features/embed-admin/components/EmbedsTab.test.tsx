import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { EmbedsTab } from './EmbedsTab.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

beforeEach(() => {
  const services = installFakeServices();
  signInSession({ role: 'Admin' }, true);
  routeHttp(services.accountHttp, {
    'GET /api/v1/virtual_account': () => ({ body: [] }),
    'GET /api/v1/agent': () => ({ body: [], headers: { 'X-Total-Count': '0' } }),
  });
});

describe('EmbedsTab without embeds', { timeout: 20_000 }, () => {
  it('invites the Admin to create the first one, not a warning', async () => {
    renderFeature(<EmbedsTab />);
    expect(await screen.findByText('Nenhum chat no seu site ainda')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    const tab = screen.getByTestId('embeds-tab');
    expect(within(tab).queryByText(/embed/i)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Criar o primeiro chat' }));
    expect(await screen.findByRole('dialog', { name: 'Novo chat para o site' })).toBeTruthy();
  });
});
