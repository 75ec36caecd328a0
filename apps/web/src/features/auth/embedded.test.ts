import { afterEach, describe, expect, it, vi } from 'vitest';
import { IdentityError } from '../../lib/identity/errors.ts';
import { visitorSession } from '../../test/fixtures.ts';
import {
  acceptEmbeddedSession,
  adoptEmbeddedSession,
  embeddedIdToken,
  embeddedVisitor,
  lastEmbeddedChat,
  rememberEmbeddedChat,
  restoreEmbeddedSession,
  setEmbeddedKeeper,
} from './embedded.ts';
import { type AuthServices, setAuthServices } from './services.ts';
import { accountSession, embeddedSession, emptyAccountSession } from './session.ts';

const session = (expiresIn = '3600') => visitorSession({ expiresIn });

function identity(refresh: (token: string) => Promise<unknown>) {
  const refreshIdToken = vi.fn(refresh);
  setAuthServices({ identity: { refreshIdToken } } as unknown as AuthServices);
  return refreshIdToken;
}

afterEach(() => {
  window.localStorage.clear();
  setAuthServices(null);
  restoreEmbeddedSession('none');
});

describe('the embedded session', () => {
  it('is kept per embed in this frame’s storage, and leaves the account session alone', () => {
    accountSession.setState({ ...emptyAccountSession, idToken: 'account' });
    acceptEmbeddedSession('va-1', session());
    expect(embeddedSession.getState().idToken).toBe('id-1');
    expect(accountSession.getState().idToken).toBe('account');

    expect(restoreEmbeddedSession('va-2')).toBe(false);
    expect(embeddedSession.getState().idToken).toBeNull();
    expect(restoreEmbeddedSession('va-1')).toBe(true);
    expect(embeddedSession.getState().idToken).toBe('id-1');
    expect(embeddedVisitor.getState().config?.displayName).toBe('Loja');
    accountSession.setState({ ...emptyAccountSession });
  });

  it('remembers the visitor’s open chat across reloads, and forgets it with a new visitor', () => {
    acceptEmbeddedSession('va-1', session());
    expect(lastEmbeddedChat()).toBeNull();
    rememberEmbeddedChat('c-1');
    restoreEmbeddedSession('va-2');
    expect(lastEmbeddedChat()).toBeNull();
    restoreEmbeddedSession('va-1');
    expect(lastEmbeddedChat()).toBe('c-1');
    acceptEmbeddedSession('va-1', session());
    expect(lastEmbeddedChat()).toBeNull();
  });

  it('hands every change to the host page’s copy, and takes that copy up', () => {
    const copies: (string | null)[] = [];
    setEmbeddedKeeper((record) => copies.push(record));
    acceptEmbeddedSession('va-1', session());
    rememberEmbeddedChat('c-9');
    setEmbeddedKeeper(null);
    expect(copies).toHaveLength(2);
    const copy = copies[1] ?? '';
    window.localStorage.clear();
    restoreEmbeddedSession('none');
    expect(adoptEmbeddedSession('va-1', 'junk')).toBe(false);
    expect(adoptEmbeddedSession('va-1', null)).toBe(false);
    expect(adoptEmbeddedSession('va-1', copy)).toBe(true);
    expect(embeddedSession.getState().idToken).toBe('id-1');
    expect(lastEmbeddedChat()).toBe('c-9');
  });

  it('outlives blocked storage while the frame is open', () => {
    acceptEmbeddedSession('va-1', session());
    window.localStorage.clear();
    expect(restoreEmbeddedSession('va-1')).toBe(true);
    expect(embeddedSession.getState().idToken).toBe('id-1');
  });

  it('ignores what storage holds when it is not a session', () => {
    window.localStorage.setItem('assistente.embedded.va-1', '{"idToken":1}');
    expect(restoreEmbeddedSession('va-1')).toBe(false);
    window.localStorage.setItem('assistente.embedded.va-1', 'not json');
    expect(restoreEmbeddedSession('va-1')).toBe(false);
  });

  it('gives its token while fresh, and renews it once through the identity service near expiry', async () => {
    const refresh = identity(async () => ({
      id_token: 'id-2',
      refresh_token: 'refresh-2',
      expires_in: '3600',
      user_id: 'va:va-1:v1',
    }));
    acceptEmbeddedSession('va-1', session());
    expect(await embeddedIdToken()).toBe('id-1');
    expect(refresh).not.toHaveBeenCalled();

    acceptEmbeddedSession('va-1', session('30'));
    const [a, b] = await Promise.all([embeddedIdToken(), embeddedIdToken()]);
    expect([a, b]).toEqual(['id-2', 'id-2']);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresh).toHaveBeenCalledWith('refresh-1');
    // Renewed tokens survive a reload.
    expect(restoreEmbeddedSession('va-1')).toBe(true);
    expect(embeddedSession.getState().idToken).toBe('id-2');
  });

  it('is lost when the renewal is refused, and kept when only the network failed', async () => {
    identity(async () => {
      throw new IdentityError('auth/network-request-failed');
    });
    acceptEmbeddedSession('va-1', session('30'));
    expect(await embeddedIdToken()).toBeNull();
    expect(embeddedVisitor.getState().lost).toBe(false);
    expect(restoreEmbeddedSession('va-1')).toBe(true);

    identity(async () => {
      throw new IdentityError('auth/user-token-expired');
    });
    expect(await embeddedIdToken()).toBeNull();
    expect(embeddedVisitor.getState().lost).toBe(true);
    expect(embeddedSession.getState().idToken).toBeNull();
    expect(restoreEmbeddedSession('va-1')).toBe(false);
  });
});
