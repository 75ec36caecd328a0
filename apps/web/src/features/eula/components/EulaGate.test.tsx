import type { User } from '@assistente/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession, testApiUser } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { accountSession } from '../../auth/session.ts';
import { EulaGate } from './EulaGate.tsx';

beforeAll(async () => {
  await loadTestTexts();
  // The gate loads its dialog lazily; loaded here, a busy machine's first import is not what the
  // first test's wait for the dialog measures.
  await import('./EulaDialog.tsx');
});
afterEach(() => resetSession());

const pendingEula: User['eula'] = {
  accept: false,
  timestamp: null,
  version: 'v1',
  pendingRevision: true,
  pendingTimestamp: '2026-07-01T10:00:00.000Z',
  isPrivacyPolicy: true,
};

function setup(eula: User['eula']) {
  const services = installFakeServices();
  signInSession({ eula });
  routeHttp(services.accountHttp, {
    'GET /api/v1/settings/eula': () => ({ body: { eula, currentVersion: 'v2' } }),
  });
  return services;
}

describe('EulaGate', { timeout: 20_000 }, () => {
  it('shows nothing once the terms are accepted', () => {
    setup({ ...pendingEula, accept: true, pendingRevision: false });
    renderFeature(<EulaGate />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('blocks the app with the terms: no close button, Esc and outside clicks do nothing', async () => {
    setup(pendingEula);
    renderFeature(<EulaGate />);
    const dialog = await screen.findByRole('dialog', { name: 'Termos de uso e política de privacidade' });
    expect(screen.getByTestId('eula-text').textContent).toContain('LGPD');
    expect(screen.queryByRole('button', { name: /fechar/i })).toBeNull();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(await screen.findByText(/versão v2/)).toBeTruthy();
  });

  it('accepting PUTs the user’s own record with the acceptance and updates the session', async () => {
    const services = setup(pendingEula);
    renderFeature(<EulaGate />);
    await screen.findByText(/versão v2/);
    await userEvent.click(screen.getByRole('button', { name: 'Aceitar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(services.accountApi.updateUser).toHaveBeenCalledTimes(1);
    const sent = services.accountApi.updateUser.mock.calls[0]?.[0];
    expect(sent).toMatchObject({ _id: testApiUser._id, email: testApiUser.email, role: testApiUser.role });
    expect(sent?.eula).toMatchObject({
      accept: true,
      version: 'v2',
      pendingRevision: false,
      pendingTimestamp: '2026-07-01T10:00:00.000Z',
      isPrivacyPolicy: true,
    });
    expect(Date.parse(sent?.eula.timestamp ?? '')).not.toBeNaN();
    expect(accountSession.getState().apiUser?.eula.pendingRevision).toBe(false);
  });

  it('keeps the dialog and says why when accepting fails', async () => {
    const services = setup(pendingEula);
    services.accountApi.updateUser.mockRejectedValueOnce(new Error('offline'));
    renderFeature(<EulaGate />);
    await userEvent.click(await screen.findByRole('button', { name: 'Aceitar' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
