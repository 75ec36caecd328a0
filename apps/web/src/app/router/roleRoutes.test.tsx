import type { Role } from '@assistente/contracts';
import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountSession } from '../../features/auth/session.ts';
import { setLanguage } from '../../lib/i18n/index.ts';
import { resolveLocale } from '../../lib/i18n/locale.ts';
import { routeHttp } from '../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../test/fakeServices.ts';
import { department, domain, user } from '../../test/fixtures.ts';
import { loadTestTexts, renderWithProviders } from '../../test/render.tsx';
import { setUi } from '../../ui/uiStore.ts';
import { queryClient } from '../queryClient.ts';
import { createRootLoader } from './rootLoader.ts';
import { createRoutes } from './routes.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => {
  resetSession();
  queryClient.clear();
  setUi({ loadingAuthPlugin: true });
});

function renderAs(role: Role, url: string) {
  const services = installFakeServices();
  signInSession({ role });
  routeHttp(services.accountHttp, {
    'GET /api/v1/domain/acme.com': () => ({ body: domain() }),
    'GET /api/v1/domain': () => ({ body: [domain(), domain({ _id: 'other.com', domain: 'other.com' })] }),
    'GET /api/v1/department': () => ({ body: [department()], headers: { 'X-Total-Count': '1' } }),
    'GET /api/v1/user': () => ({ body: [user()], headers: { 'X-Total-Count': '1' } }),
    'GET /api/v1/settings/profile': () => ({
      body: {
        _id: 'ana@acme.com',
        email: 'ana@acme.com',
        displayName: 'Ana',
        locale: null,
        role,
        domain: 'acme.com',
        department: 'dep-1',
      },
    }),
  });
  setUi({ loadingAuthPlugin: false });
  const rootLoader = createRootLoader({
    resolveLocale: (pathname) => resolveLocale({ pathname, cookie: null, languages: [] }),
    rememberLocale: () => {},
    setLanguage,
    waitForAuth: () => Promise.resolve(),
    accountSession: () => accountSession.getState(),
    hashOf: () => '',
  });
  const router = createMemoryRouter(createRoutes({ rootLoader, pendingHref: () => url }), {
    initialEntries: [url],
  });
  renderWithProviders(<RouterProvider router={router} />);
  return services;
}

const WAIT = { timeout: 5000 };
const notFound = () => screen.findByRole('heading', { name: 'Página não encontrada' }, WAIT);

describe('pages by role', { timeout: 20_000 }, () => {
  it.each(['/users', '/departments', '/domains'])('an Editor gets the 404 page on %s', async (path) => {
    renderAs('Editor', path);
    expect(await notFound()).toBeTruthy();
  });

  it('an Admin sees their own domain read-only on /domains', async () => {
    renderAs('Admin', '/domains');
    expect(await screen.findByTestId('own-domain', {}, WAIT)).toBeTruthy();
    expect(screen.getByText('Só um superadministrador pode alterar os dados do domínio.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Novo domínio' })).toBeNull();
  });

  it('a SuperAdmin manages every domain on /domains', async () => {
    renderAs('SuperAdmin', '/domains');
    expect(await screen.findByRole('button', { name: 'Novo domínio' }, WAIT)).toBeTruthy();
    expect(await screen.findByText('other.com', {}, WAIT)).toBeTruthy();
  });

  it('an Admin invites users on /users', async () => {
    renderAs('Admin', '/users');
    expect(await screen.findByRole('button', { name: 'Convidar usuário' }, WAIT)).toBeTruthy();
    expect(await screen.findByTestId('users-table', {}, WAIT)).toBeTruthy();
  });

  it('a Viewer has no audit log or domain tab in /settings', async () => {
    renderAs('Viewer', '/settings');
    expect(await screen.findByRole('tab', { name: 'Perfil' }, WAIT)).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Auditoria' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Domínio' })).toBeNull();
  });

  it('an Admin has the audit log and domain tabs in /settings', async () => {
    renderAs('Admin', '/settings');
    expect(await screen.findByRole('tab', { name: 'Auditoria' }, WAIT)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Domínio' })).toBeTruthy();
  });
});
