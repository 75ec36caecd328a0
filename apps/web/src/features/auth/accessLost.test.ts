import { afterEach, describe, expect, it, vi } from 'vitest';
import { IdentityError } from '../../lib/identity/errors.ts';
import { recheckAccess, signOutReason } from './accessLost.ts';

const takeSignOutReason = () => {
  const { reason } = signOutReason.getState();
  signOutReason.setState({ reason: null });
  return reason;
};

afterEach(() => {
  signOutReason.setState({ reason: null });
});

describe('recheckAccess', () => {
  it('signs out with "session_ended" when the refresh token was revoked elsewhere', async () => {
    const signOut = vi.fn(async () => {});
    const refresh = vi.fn(async () => {
      throw new IdentityError('auth/invalid-user-token');
    });
    await recheckAccess('unauthenticated', { refresh, signOut });
    expect(signOut).toHaveBeenCalledOnce();
    expect(takeSignOutReason()).toBe('session_ended');
    expect(takeSignOutReason()).toBeNull();
  });

  it('signs out with "deactivated" for a disabled account, or a refused one whose token still refreshes', async () => {
    const signOut = vi.fn(async () => {});
    await recheckAccess('unauthenticated', {
      refresh: async () => {
        throw new IdentityError('auth/user-disabled');
      },
      signOut,
    });
    expect(takeSignOutReason()).toBe('deactivated');
    await recheckAccess('forbidden', { refresh: async () => 'fresh', signOut });
    expect(takeSignOutReason()).toBe('deactivated');
    expect(signOut).toHaveBeenCalledTimes(2);
  });

  it('keeps the session when the token was only stale, or the network is down', async () => {
    const signOut = vi.fn(async () => {});
    await recheckAccess('unauthenticated', { refresh: async () => 'fresh', signOut });
    await recheckAccess('unauthenticated', {
      refresh: async () => {
        throw new TypeError('Failed to fetch');
      },
      signOut,
    });
    expect(signOut).not.toHaveBeenCalled();
    expect(takeSignOutReason()).toBeNull();
  });

  it('runs one check at a time for a burst of refusals', async () => {
    const refresh = vi.fn(async () => {
      throw new IdentityError('auth/user-token-expired');
    });
    const signOut = vi.fn(async () => {});
    await Promise.all([1, 2, 3].map(() => recheckAccess('unauthenticated', { refresh, signOut })));
    expect(refresh).toHaveBeenCalledOnce();
    expect(signOut).toHaveBeenCalledOnce();
  });
});
