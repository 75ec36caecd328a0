import type { RefreshTokenResponse, SignInResponse } from '@assistente/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IdentityAuth } from './auth.ts';
import type { IdentityClient } from './client.ts';
import { IdentityError } from './errors.ts';
import { memoryPersistence, type Persistence } from './persistence.ts';
import type { IdentityUser } from './user.ts';
import { isTokenExpired, TOKEN_EXPIRY_MARGIN_MS } from './user.ts';

const HOUR = 3_600_000;

/** A Web Locks stand-in: one holder at a time, in request order. */
function fakeLocks() {
  let chain: Promise<unknown> = Promise.resolve();
  const request = vi.fn((_name: string, _options: LockOptions, callback: (lock: Lock | null) => unknown) => {
    const run = chain.then(() => callback(null));
    chain = run.catch(() => undefined);
    return run;
  });
  return { request } as unknown as LockManager & { request: typeof request };
}

/** localStorage shared by "tabs": a write fires `storage` in the other tabs only. */
function sharedStorage() {
  const tabs: EventTarget[] = [];
  const data = new Map<string, string>();
  const forTab = (self: EventTarget): Storage =>
    ({
      getItem: (key: string) => data.get(key) ?? null,
      setItem: (key: string, value: string) => {
        data.set(key, value);
        for (const tab of tabs)
          if (tab !== self) tab.dispatchEvent(new StorageEvent('storage', { key, newValue: value }));
      },
    }) as Storage;
  const tab = () => {
    const events = new EventTarget();
    tabs.push(events);
    return { events, storage: forTab(events) };
  };
  return { tab };
}

let rotation = 0;
function fakeClient() {
  const client = {
    signInWithPassword: vi.fn(
      async (email: string): Promise<SignInResponse> => ({
        localId: 'u1',
        email,
        displayName: 'Ana',
        idToken: 'id-0',
        refreshToken: 'refresh-0',
        expiresIn: '3600',
        registered: true,
      }),
    ),
    refreshIdToken: vi.fn(async (refreshToken: string): Promise<RefreshTokenResponse> => {
      rotation += 1;
      return {
        id_token: `id-${rotation}`,
        refresh_token: `refresh-${rotation}`,
        expires_in: '3600',
        token_type: 'Bearer',
        user_id: 'u1',
        project_id: `from ${refreshToken}`,
      };
    }),
    revokeToken: vi.fn(async () => {}),
    sendPasswordResetEmail: vi.fn(),
    verifyPasswordResetCode: vi.fn(),
    confirmPasswordReset: vi.fn(),
    getPasswordPolicy: vi.fn(),
    updatePassword: vi.fn(async (idToken: string) => ({
      localId: 'u1',
      email: 'ana@acme.com',
      idToken: `updated-from-${idToken}`,
      refreshToken: 'refresh-updated',
      expiresIn: '3600',
    })),
  };
  return client as typeof client & IdentityClient;
}

const instances: IdentityAuth[] = [];
function makeAuth(options: {
  client?: ReturnType<typeof fakeClient>;
  persistence?: Persistence;
  locks?: LockManager | null;
  tab?: { events: EventTarget; storage: Storage };
  now?: () => number;
}) {
  const auth = new IdentityAuth({
    client: options.client ?? fakeClient(),
    apiKey: 'key',
    persistence: options.persistence ?? memoryPersistence(),
    locks: options.locks ?? null,
    signalStorage: options.tab?.storage ?? null,
    events: (options.tab?.events as unknown as Window) ?? null,
    now: options.now,
  });
  instances.push(auth);
  return auth;
}

afterEach(() => {
  for (const auth of instances.splice(0)) auth.dispose();
  rotation = 0;
});

describe('token expiry', () => {
  it('treats a token as expired 30 s early', () => {
    expect(TOKEN_EXPIRY_MARGIN_MS).toBe(30_000);
    expect(isTokenExpired({ expirationTime: 100_000 }, 69_999)).toBe(false);
    expect(isTokenExpired({ expirationTime: 100_000 }, 70_000)).toBe(true);
  });
});

describe('IdentityAuth', () => {
  it('signs in, persists the user and tells listeners', async () => {
    const persistence = memoryPersistence();
    const auth = makeAuth({ persistence, now: () => 0 });
    const states: (IdentityUser | null)[] = [];
    auth.onAuthStateChanged((user) => states.push(user), { emitInitial: false });
    const user = await auth.signInWithEmailAndPassword(' ana@acme.com ', 'pw');
    expect(user).toMatchObject({
      uid: 'u1',
      email: 'ana@acme.com',
      stsTokenManager: { expirationTime: HOUR },
    });
    expect(states.map((u) => u?.uid)).toEqual(['u1']);
    expect(await persistence.get(auth.storageKey)).toMatchObject({ uid: 'u1' });
  });

  it('emits the restored user first', async () => {
    const persistence = memoryPersistence();
    const first = makeAuth({ persistence, now: () => 0 });
    await first.signInWithEmailAndPassword('ana@acme.com', 'pw');
    first.dispose();
    const second = makeAuth({ persistence, now: () => 0 });
    const seen = await new Promise<IdentityUser | null>((resolve) => second.onAuthStateChanged(resolve));
    expect(seen?.uid).toBe('u1');
  });

  it('returns the cached id token until 30 s before expiry, then renews it', async () => {
    let now = 0;
    const client = fakeClient();
    const auth = makeAuth({ client, now: () => now });
    await auth.signInWithEmailAndPassword('ana@acme.com', 'pw');
    now = HOUR - 30_001;
    await expect(auth.getIdToken()).resolves.toBe('id-0');
    now = HOUR - 30_000;
    await expect(auth.getIdToken()).resolves.toBe('id-1');
    expect(client.refreshIdToken).toHaveBeenCalledWith('refresh-0');
  });

  it('forces a renewal and shares one request between concurrent callers', async () => {
    const client = fakeClient();
    const auth = makeAuth({ client, now: () => 0 });
    await auth.signInWithEmailAndPassword('ana@acme.com', 'pw');
    const tokens = await Promise.all([auth.getIdToken(true), auth.getIdToken(true)]);
    expect(tokens).toEqual(['id-1', 'id-1']);
    expect(client.refreshIdToken).toHaveBeenCalledTimes(1);
    expect(auth.currentUser?.stsTokenManager.refreshToken).toBe('refresh-1');
  });

  it('renews under a Web Lock and adopts a token another tab already rotated (no replay)', async () => {
    const persistence = memoryPersistence();
    const locks = fakeLocks();
    const storage = sharedStorage();
    const client = fakeClient();
    const tabA = makeAuth({ client, persistence, locks, tab: storage.tab(), now: () => 0 });
    await tabA.signInWithEmailAndPassword('ana@acme.com', 'pw');
    const tabB = makeAuth({ client, persistence, locks, now: () => 0 }); // no storage events: stays stale
    await tabB.ready;
    expect(tabB.currentUser?.stsTokenManager.refreshToken).toBe('refresh-0');

    await tabA.getIdToken(true); // rotates refresh-0 → refresh-1
    const token = await tabB.getIdToken(true);

    expect(token).toBe('id-1');
    expect(client.refreshIdToken).toHaveBeenCalledTimes(1);
    expect(client.refreshIdToken).toHaveBeenCalledWith('refresh-0');
    expect(tabB.currentUser?.stsTokenManager.refreshToken).toBe('refresh-1');
    expect(locks.request).toHaveBeenCalledWith(
      'assistente:token-refresh:key',
      { mode: 'exclusive' },
      expect.any(Function),
    );
  });

  it('follows other tabs through storage events: new token, sign-out', async () => {
    const persistence = memoryPersistence();
    const storage = sharedStorage();
    const tabA = makeAuth({ persistence, tab: storage.tab(), now: () => 0 });
    await tabA.signInWithEmailAndPassword('ana@acme.com', 'pw');
    const tabB = makeAuth({ persistence, tab: storage.tab(), now: () => 0 });
    await tabB.ready;
    const states: (string | null)[] = [];
    tabB.onAuthStateChanged((user) => states.push(user?.uid ?? null), { emitInitial: false });

    await tabA.getIdToken(true);
    await vi.waitFor(() => expect(tabB.currentUser?.stsTokenManager.accessToken).toBe('id-1'));

    await tabA.signOut();
    await vi.waitFor(() => expect(tabB.currentUser).toBeNull());
    expect(states).toEqual([null]);
  });

  it('signs out: forgets the user and revokes its refresh token', async () => {
    const persistence = memoryPersistence();
    const client = fakeClient();
    const auth = makeAuth({ client, persistence, now: () => 0 });
    await auth.signInWithEmailAndPassword('ana@acme.com', 'pw');
    const states: (IdentityUser | null)[] = [];
    auth.onAuthStateChanged((user) => states.push(user), { emitInitial: false });
    await auth.signOut();
    expect(auth.currentUser).toBeNull();
    expect(states).toEqual([null]);
    expect(await persistence.get(auth.storageKey)).toBeNull();
    expect(client.revokeToken).toHaveBeenCalledWith('refresh-0');
    await expect(auth.getIdToken()).resolves.toBeNull();
  });

  it('signing out while a renewal is storing its result leaves nobody signed in, here or after a reload', async () => {
    // IndexedDB answers the renewal's "still signed in?" read with what was there before a
    // removal queued behind it: the renewal then wrote the user back after the sign-out.
    const inner = memoryPersistence();
    let signOutDuringCheck: (() => void) | null = null;
    const persistence: Persistence = {
      type: 'memory',
      get: async (key) => {
        const value = await inner.get(key);
        const hook = signOutDuringCheck;
        signOutDuringCheck = null;
        if (hook) {
          hook();
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        return value;
      },
      set: (key, value) => inner.set(key, value),
      remove: (key) => inner.remove(key),
    };
    const client = fakeClient();
    const locks = fakeLocks();
    const auth = makeAuth({ client, persistence, locks, now: () => 0 });
    await auth.signInWithEmailAndPassword('ana@acme.com', 'pw');
    let signingOut: Promise<void> = Promise.resolve();
    const renewedResponse = client.refreshIdToken.getMockImplementation();
    client.refreshIdToken.mockImplementationOnce(async (token: string) => {
      const response = await renewedResponse?.(token);
      signOutDuringCheck = () => {
        signingOut = auth.signOut();
      };
      return response as RefreshTokenResponse;
    });

    await expect(auth.getIdToken(true)).rejects.toMatchObject({ code: 'auth/user-token-expired' });
    await signingOut;

    expect(auth.currentUser).toBeNull();
    expect(await inner.get(auth.storageKey)).toBeNull();
    // Both the session's token and the one the renewal was given are revoked.
    expect(client.revokeToken).toHaveBeenCalledWith('refresh-0');
    expect(client.revokeToken).toHaveBeenCalledWith('refresh-1');
    const reloaded = makeAuth({ client, persistence: inner, now: () => 0 });
    await reloaded.ready;
    expect(reloaded.currentUser).toBeNull();
  });

  it('does not touch storage when signing out without a user (another tab may be signing in)', async () => {
    const persistence = memoryPersistence();
    const tabA = makeAuth({ persistence, now: () => 0 });
    await tabA.ready;
    const tabB = makeAuth({ persistence, now: () => 0 });
    await tabB.signInWithEmailAndPassword('ana@acme.com', 'pw');
    await tabA.signOut();
    expect(await persistence.get(tabB.storageKey)).toMatchObject({ uid: 'u1' });
  });

  it('ends the session when the refresh token is refused', async () => {
    const client = fakeClient();
    client.refreshIdToken.mockRejectedValueOnce(
      new IdentityError('auth/invalid-user-token', 'INVALID_REFRESH_TOKEN'),
    );
    const persistence = memoryPersistence();
    const auth = makeAuth({ client, persistence, now: () => 0 });
    await auth.signInWithEmailAndPassword('ana@acme.com', 'pw');
    await expect(auth.getIdToken(true)).rejects.toMatchObject({ code: 'auth/invalid-user-token' });
    expect(auth.currentUser).toBeNull();
    expect(await persistence.get(auth.storageKey)).toBeNull();
  });

  it('keeps the session on a network failure', async () => {
    const client = fakeClient();
    client.refreshIdToken.mockRejectedValueOnce(new IdentityError('auth/network-request-failed'));
    const auth = makeAuth({ client, now: () => 0 });
    await auth.signInWithEmailAndPassword('ana@acme.com', 'pw');
    await expect(auth.getIdToken(true)).rejects.toMatchObject({ code: 'auth/network-request-failed' });
    expect(auth.currentUser?.uid).toBe('u1');
  });
});

describe('IdentityAuth.changePassword', () => {
  it('re-authenticates, updates the password and keeps the new session tokens', async () => {
    const client = fakeClient();
    const persistence = memoryPersistence();
    const auth = makeAuth({ client, persistence, locks: fakeLocks(), now: () => 0 });
    await auth.signInWithEmailAndPassword('ana@acme.com', 'old');
    const tokens: (string | null)[] = [];
    auth.onIdTokenChanged((user) => tokens.push(user?.stsTokenManager.accessToken ?? null));

    await auth.changePassword('old', 'New-passw0rd!');

    expect(client.signInWithPassword).toHaveBeenLastCalledWith('ana@acme.com', 'old');
    expect(client.updatePassword).toHaveBeenCalledWith('id-0', 'New-passw0rd!');
    expect(auth.currentUser?.uid).toBe('u1');
    expect(auth.currentUser?.stsTokenManager).toMatchObject({
      accessToken: 'updated-from-id-0',
      refreshToken: 'refresh-updated',
    });
    const stored = (await persistence.get(auth.storageKey)) as IdentityUser;
    expect(stored.stsTokenManager.refreshToken).toBe('refresh-updated');
    expect(tokens).toEqual(['updated-from-id-0']);
    expect(client.revokeToken).not.toHaveBeenCalled();
  });

  it('leaves the session as it was when the current password is wrong', async () => {
    const client = fakeClient();
    const auth = makeAuth({ client, now: () => 0 });
    await auth.signInWithEmailAndPassword('ana@acme.com', 'old');
    const before = auth.currentUser?.stsTokenManager;
    client.signInWithPassword.mockRejectedValueOnce(new IdentityError('auth/invalid-credential'));
    await expect(auth.changePassword('wrong', 'New-passw0rd!')).rejects.toMatchObject({
      code: 'auth/invalid-credential',
    });
    expect(client.updatePassword).not.toHaveBeenCalled();
    expect(auth.currentUser?.stsTokenManager).toEqual(before);
  });

  it('revokes the re-authentication session when the new password is refused', async () => {
    const client = fakeClient();
    const auth = makeAuth({ client, now: () => 0 });
    await auth.signInWithEmailAndPassword('ana@acme.com', 'old');
    client.updatePassword.mockRejectedValueOnce(
      new IdentityError('auth/password-does-not-meet-requirements'),
    );
    await expect(auth.changePassword('old', 'weak')).rejects.toMatchObject({
      code: 'auth/password-does-not-meet-requirements',
    });
    expect(client.revokeToken).toHaveBeenCalledWith('refresh-0');
    expect(auth.currentUser?.stsTokenManager.refreshToken).toBe('refresh-0');
  });
});
