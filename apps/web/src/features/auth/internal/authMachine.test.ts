import type { Department, Domain, User } from '@assistente/contracts';
import { createStore } from '@mantine/store';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../../lib/http/errors.ts';
import type { AuthListener } from '../../../lib/identity/auth.ts';
import { IdentityError } from '../../../lib/identity/errors.ts';
import type { IdentityUser } from '../../../lib/identity/user.ts';
import { identityUser as testIdentity } from '../../../test/fakeServices.ts';
import { user } from '../../../test/fixtures.ts';
import { signOutReason } from '../accessLost.ts';
import type { AccountApi } from '../api.ts';
import { type AccountSession, emptyAccountSession, isAuthenticated } from '../session.ts';
import { createAuthMachine } from './authMachine.ts';

const identityUser = (email: string | null = 'Ana@Acme.com'): IdentityUser =>
  testIdentity({
    email,
    displayName: 'Ana',
    stsTokenManager: { accessToken: 'id-0', refreshToken: 'r0', expirationTime: 0 },
  });

const apiUser = (patch: Partial<User> = {}): User =>
  user({ displayName: 'Ana', department: 'dep-old', ...patch });

const domain: Domain = {
  _id: 'acme.com',
  domain: 'acme.com',
  active: true,
  displayName: 'Acme',
  cnpj: null,
  premium: true,
  isTrusted: true,
  creator: { name: 'Op', email: 'op@acme.com' },
};

const departments: Department[] = [
  { _id: 'dep-1', displayName: 'First', domain: 'acme.com', active: true },
  { _id: 'dep-2', displayName: 'Second', domain: 'acme.com', active: true },
];

const notFound = () =>
  new HttpError({
    url: '/api/v1/user/ana%40acme.com',
    method: 'GET',
    status: 404,
    data: { error: { status: 404, code: 'USER_NOT_FOUND', message: 'User not found' } },
  });

function setup(options: { user?: User | Error; domain?: Domain | Error; departments?: Department[] } = {}) {
  let listener: AuthListener | null = null;
  let tokens = 0;
  const auth = {
    onAuthStateChanged: vi.fn((cb: AuthListener) => {
      listener = cb;
      return () => {
        listener = null;
      };
    }),
    onIdTokenChanged: vi.fn(() => () => {}),
    // A token still fresh unless a renewal is forced.
    getIdToken: vi.fn(async (force?: boolean) => (force ? `id-${++tokens}` : `id-${tokens}`)),
    signOut: vi.fn(async () => {}),
  };
  const found = options.user ?? apiUser();
  const api: AccountApi & { [K in keyof AccountApi]: ReturnType<typeof vi.fn> } = {
    getUserByEmail: vi.fn(async () => {
      if (found instanceof Error) throw found;
      return found;
    }),
    getDomain: vi.fn(async () => {
      if (options.domain instanceof Error) throw options.domain;
      return options.domain ?? domain;
    }),
    listDepartments: vi.fn(async () => options.departments ?? departments),
    updateUser: vi.fn(async (user: User) => user),
  };
  const session = createStore<AccountSession>({ ...emptyAccountSession });
  const setLoadingAuth = vi.fn();
  const machine = createAuthMachine({ auth, api, session, setLoadingAuth });
  machine.start();
  const emit = async (user: IdentityUser | null) => {
    listener?.(user);
    return machine.settled();
  };
  return { auth, api, session, setLoadingAuth, machine, emit, hasListener: () => listener !== null };
}

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  signOutReason.setState({ reason: null });
});

describe('auth state machine', () => {
  it('stores the identity user, API user, domain and a refreshed token when the user is found', async () => {
    const { emit, api, auth, session, setLoadingAuth } = setup();
    await expect(emit(identityUser())).resolves.toEqual({ status: 'authenticated' });
    expect(api.getUserByEmail).toHaveBeenCalledWith('Ana@Acme.com');
    expect(api.getDomain).toHaveBeenCalledWith('acme.com', expect.objectContaining({ domain: 'acme.com' }));
    expect(auth.getIdToken).toHaveBeenCalledWith(true);
    const state = session.getState();
    expect(isAuthenticated(state)).toBe(true);
    expect(state).toMatchObject({
      apiUser: { _id: 'ana@acme.com' },
      domain: { premium: true },
      idToken: 'id-1',
    });
    expect(state.identityUser?.uid).toBe('u1');
    expect(setLoadingAuth).toHaveBeenLastCalledWith(false);
    expect(auth.signOut).not.toHaveBeenCalled();
  });

  it('signs out when the API user is not found (404 User not found)', async () => {
    const { emit, auth, session, setLoadingAuth, hasListener } = setup({ user: notFound() });
    const outcome = await emit(identityUser());
    expect(outcome).toMatchObject({ status: 'signed-out' });
    expect(auth.signOut).toHaveBeenCalledTimes(1);
    expect(session.getState()).toEqual(emptyAccountSession);
    expect(hasListener()).toBe(false); // sign-out stops the listener
    expect(setLoadingAuth).toHaveBeenLastCalledWith(false);
  });

  it('signs out without an email or without a user', async () => {
    const first = setup();
    await first.emit(identityUser(null));
    expect(first.auth.signOut).toHaveBeenCalled();
    expect(first.api.getUserByEmail).not.toHaveBeenCalled();
    const second = setup();
    await second.emit(null);
    expect(second.auth.signOut).toHaveBeenCalled();
    expect(second.setLoadingAuth).toHaveBeenLastCalledWith(false);
  });

  it('signs out saying why when the account was disabled while the app was closed', async () => {
    const { emit, auth, api } = setup();
    auth.getIdToken.mockRejectedValueOnce(new IdentityError('auth/user-disabled'));
    await expect(emit(identityUser())).resolves.toMatchObject({ status: 'signed-out' });
    expect(api.getUserByEmail).not.toHaveBeenCalled();
    expect(signOutReason.getState().reason).toBe('deactivated');
  });

  it('signs out saying why when the account manager refuses the user (deactivated user or organisation)', async () => {
    const refused = new HttpError({
      url: '/api/v1/user/x',
      method: 'GET',
      status: 403,
      data: { error: { status: 403, code: 'FORBIDDEN', message: 'This user is deactivated' } },
    });
    const { emit, auth } = setup({ user: refused });
    await expect(emit(identityUser())).resolves.toMatchObject({ status: 'signed-out' });
    expect(auth.signOut).toHaveBeenCalled();
    expect(signOutReason.getState().reason).toBe('deactivated');
  });

  it('gives no reason when the failure says nothing about access', async () => {
    const { emit } = setup({ user: notFound() });
    await emit(identityUser());
    expect(signOutReason.getState().reason).toBeNull();
  });

  it('signs out when anything else fails', async () => {
    const { emit, auth, session } = setup();
    auth.getIdToken.mockRejectedValueOnce(new Error('network'));
    await expect(emit(identityUser())).resolves.toMatchObject({ status: 'signed-out' });
    expect(auth.signOut).toHaveBeenCalled();
    expect(isAuthenticated(session.getState())).toBe(false);
  });

  it('only logs a failed domain refresh', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { emit, session } = setup({ domain: new Error('boom') });
    await expect(emit(identityUser())).resolves.toEqual({ status: 'authenticated' });
    expect(session.getState().domain).toBeNull();
    expect(warn).toHaveBeenCalledWith('Could not refresh the domain', expect.any(Error));
  });

  it('moves a SuperAdmin whose department is not listed to the first department, then refreshes the token', async () => {
    const { emit, api, auth, session } = setup({ user: apiUser({ role: 'SuperAdmin' }) });
    await emit(identityUser());
    expect(api.listDepartments).toHaveBeenCalled();
    expect(api.updateUser).toHaveBeenCalledTimes(1);
    expect(api.updateUser.mock.calls[0]?.[0]).toMatchObject({
      _id: 'ana@acme.com',
      department: 'dep-1',
      role: 'SuperAdmin',
    });
    expect(session.getState().apiUser?.department).toBe('dep-1');
    expect(auth.getIdToken.mock.calls.filter(([force]) => force)).toHaveLength(2);
    expect(session.getState().idToken).toBe('id-2');
  });

  it('leaves a SuperAdmin whose department is listed alone', async () => {
    const { emit, api } = setup({ user: apiUser({ role: 'SuperAdmin', department: 'dep-2' }) });
    await emit(identityUser());
    expect(api.listDepartments).toHaveBeenCalled();
    expect(api.updateUser).not.toHaveBeenCalled();
  });

  it('never repairs other roles', async () => {
    for (const role of ['Viewer', 'Editor', 'Admin'] as const) {
      const { emit, api } = setup({ user: apiUser({ role }) });
      await emit(identityUser());
      expect(api.listDepartments).not.toHaveBeenCalled();
      expect(api.updateUser).not.toHaveBeenCalled();
    }
  });

  it('only logs a failed department check', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { emit, api, session } = setup({ user: apiUser({ role: 'SuperAdmin' }) });
    api.updateUser.mockRejectedValueOnce(new Error('forbidden'));
    await expect(emit(identityUser())).resolves.toEqual({ status: 'authenticated' });
    expect(isAuthenticated(session.getState())).toBe(true);
    expect(warn).toHaveBeenCalledWith('Could not check the account department', expect.any(Error));
  });

  it('sign-out clears the session, stops listening and signs out of the identity provider', async () => {
    const { emit, machine, auth, session, hasListener } = setup();
    await emit(identityUser());
    await machine.signOut();
    expect(session.getState()).toEqual(emptyAccountSession);
    expect(hasListener()).toBe(false);
    expect(machine.listening).toBe(false);
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });
});
