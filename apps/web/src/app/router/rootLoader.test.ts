import type { Locale, User } from '@assistente/contracts';
import type { LoaderFunctionArgs } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { type AccountSession, emptyAccountSession } from '../../features/auth/session.ts';
import { resolveLocale } from '../../lib/i18n/locale.ts';
import type { IdentityUser } from '../../lib/identity/user.ts';
import { createRootLoader, type PageErrorData, type RootLoaderDeps } from './rootLoader.ts';
import { stripTrailingSlash } from './trailingSlash.ts';

const user = { _id: 'ana@acme.com', email: 'ana@acme.com', role: 'Viewer' } as User;
const signedIn: AccountSession = {
  identityUser: { uid: 'u1' } as IdentityUser,
  apiUser: user,
  domain: null,
  idToken: 'token',
};

function setup(overrides: Partial<RootLoaderDeps> = {}, session: AccountSession = emptyAccountSession) {
  const deps: RootLoaderDeps = {
    resolveLocale: (pathname) => resolveLocale({ pathname, cookie: null, languages: [] }),
    rememberLocale: vi.fn<(locale: Locale) => void>(),
    setLanguage: vi.fn(async () => {}),
    waitForAuth: vi.fn(async () => {}),
    accountSession: () => session,
    hashOf: () => '',
    ...overrides,
  };
  const loader = createRootLoader(deps);
  const run = (url: string) =>
    loader({ request: new Request(`http://app.test${url}`), params: {}, context: {} } as LoaderFunctionArgs);
  return { deps, run };
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the loader to throw');
}

function asRedirect(value: unknown): { location: string | null; replace: boolean } {
  expect(value).toBeInstanceOf(Response);
  const response = value as Response;
  return { location: response.headers.get('Location'), replace: response.headers.has('X-Remix-Replace') };
}

function asPageError(value: unknown): { status: number; data: PageErrorData } {
  const error = value as { init: { status: number }; data: PageErrorData };
  return { status: error.init.status, data: error.data };
}

describe('trailing slash', () => {
  it('is stripped from any path but /', () => {
    expect(stripTrailingSlash('/users/')).toBe('/users');
    expect(stripTrailingSlash('/chats/abc//')).toBe('/chats/abc');
    expect(stripTrailingSlash('/')).toBeNull();
    expect(stripTrailingSlash('/users')).toBeNull();
  });

  it('redirects (replacing the entry) keeping query and hash', async () => {
    const { run } = setup({ hashOf: () => '#part' });
    expect(asRedirect(await thrown(run('/users/?page=2')))).toEqual({
      location: '/users?page=2#part',
      replace: true,
    });
  });
});

describe('page validity', () => {
  it("raises 404 'Page Not Found: {path}' for a malformed chat id", async () => {
    const { run } = setup({}, signedIn);
    const error = asPageError(await thrown(run('/chats/bad%20id!')));
    expect(error.status).toBe(404);
    expect(error.data).toEqual({ statusCode: 404, message: 'Page Not Found: /chats/bad%20id!', fatal: true });
  });

  it('accepts a well-formed chat id', async () => {
    const { run } = setup({}, signedIn);
    await expect(run('/chats/abc_DEF-123')).resolves.toEqual({ locale: 'pt-BR', prefix: null });
  });

  it('raises 404 for the embedded chat’s addresses: they are embedded.html’s, not this app’s', async () => {
    const { run, deps } = setup({}, signedIn);
    expect(asPageError(await thrown(run('/embedded/a.b/chats'))).status).toBe(404);
    expect(asPageError(await thrown(run('/embedded/va-1/chats'))).status).toBe(404);
    expect(asPageError(await thrown(run('/en/embedded/va-1/chats/c-1'))).status).toBe(404);
    expect(deps.waitForAuth).not.toHaveBeenCalled();
  });

  it('raises 404 for unknown paths, before asking anyone to sign in', async () => {
    const { run, deps } = setup();
    expect(asPageError(await thrown(run('/nope'))).data.message).toBe('Page Not Found: /nope');
    expect(deps.waitForAuth).not.toHaveBeenCalled();
  });
});

describe('language', () => {
  it('sets the language of the prefix and remembers it', async () => {
    const { run, deps } = setup({}, signedIn);
    await expect(run('/es/chats')).resolves.toEqual({ locale: 'es', prefix: 'es' });
    expect(deps.setLanguage).toHaveBeenCalledWith('es');
    expect(deps.rememberLocale).toHaveBeenCalledWith('es');
  });

  it('does not touch the cookie for unprefixed paths', async () => {
    const { run, deps } = setup({}, signedIn);
    await run('/chats');
    expect(deps.rememberLocale).not.toHaveBeenCalled();
    expect(deps.setLanguage).toHaveBeenCalledWith('pt-BR');
  });
});

describe('guards', () => {
  it('waits for the auth state before deciding', async () => {
    let release: () => void = () => {};
    const waitForAuth = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    const { run } = setup({ waitForAuth });
    const result = thrown(run('/users'));
    await Promise.resolve();
    expect(waitForAuth).toHaveBeenCalled();
    release();
    expect(asRedirect(await result).location).toBe('/auth/login?redirect=%2Fusers');
  });

  it('answers 404 from the premium guard', async () => {
    const { run } = setup({}, signedIn);
    expect(asPageError(await thrown(run('/santitos'))).data.message).toBe('Page Not Found: /santitos');
  });

  it('redirects /auth to /auth/login', async () => {
    const { run } = setup();
    expect(asRedirect(await thrown(run('/auth?x=1'))).location).toBe('/auth/login?x=1');
  });
});
