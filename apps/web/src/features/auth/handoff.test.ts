import type { LoginSubmitRequest } from '@assistente/contracts';
import { describe, expect, it, vi } from 'vitest';
import type { IdentityUser } from '../../lib/identity/user.ts';
import {
  editorDeepLinkUrl,
  loginRedirectUri,
  parseAuthCode,
  readHandoffQuery,
  runEditorHandoff,
} from './handoff.ts';

describe('handoff query', () => {
  it('needs code_challenge and provider=authkit', () => {
    expect(readHandoffQuery(new URLSearchParams('provider=authkit&code_challenge=abc&state=s1'))).toEqual({
      codeChallenge: 'abc',
      state: 's1',
    });
    expect(readHandoffQuery(new URLSearchParams('provider=other&code_challenge=abc'))).toBeNull();
    expect(readHandoffQuery(new URLSearchParams('provider=authkit'))).toBeNull();
  });
});

describe('parseAuthCode', () => {
  it('reads the code from the redirect address', () => {
    expect(parseAuthCode({ redirect_uri: 'https://app.test/auth/login?code=c0de&state=s' })).toBe('c0de');
  });

  it('reads the auth_code field', () => {
    expect(parseAuthCode({ auth_code: 'c0de' })).toBe('c0de');
  });

  it('fails with "Auth code missing in redirect URL" when the address has no code', () => {
    expect(() => parseAuthCode({ redirect_uri: 'https://app.test/auth/login?state=s' })).toThrow(
      'Auth code missing in redirect URL',
    );
  });

  it('fails with "Invalid response format: auth_code missing" otherwise', () => {
    expect(() => parseAuthCode({})).toThrow('Invalid response format: auth_code missing');
    expect(() => parseAuthCode(null)).toThrow('Invalid response format: auth_code missing');
    expect(() => parseAuthCode({ auth_code: '' })).toThrow('Invalid response format: auth_code missing');
  });
});

describe('addresses', () => {
  it('uses the login page (with its locale prefix) as the redirect address', () => {
    expect(loginRedirectUri('https://app.test', null)).toBe('https://app.test/auth/login');
    expect(loginRedirectUri('https://app.test', 'en')).toBe('https://app.test/en/auth/login');
  });

  it('puts code and state on the configured deep link', () => {
    expect(editorDeepLinkUrl('vscode://assistente.assistente-vscode/auth-callback', 'c 1', 's&2')).toBe(
      'vscode://assistente.assistente-vscode/auth-callback?code=c+1&state=s%262',
    );
    expect(editorDeepLinkUrl('vscode://x/cb?v=1', 'c', 's')).toBe('vscode://x/cb?v=1&code=c&state=s');
  });
});

describe('runEditorHandoff', () => {
  const user = { uid: 'u1', email: 'ana@acme.com', stsTokenManager: { refreshToken: 'r1' } } as IdentityUser;

  it('submits the spec payload and opens the deep link with code and state', async () => {
    const submit = vi.fn(async (_payload: LoginSubmitRequest) => ({
      redirect_uri: 'https://app.test/auth/login?code=abc&state=st',
    }));
    const open = vi.fn();
    const result = await runEditorHandoff(
      { state: 'st', codeChallenge: 'ch' },
      'https://app.test/auth/login',
      {
        currentUser: () => user,
        getIdToken: async () => 'id-1',
        submit,
        deepLink: () => 'vscode://assistente.assistente-vscode/auth-callback',
        open,
      },
    );
    expect(result).toBe('opened');
    expect(submit).toHaveBeenCalledWith({
      idToken: 'id-1',
      refreshToken: 'r1',
      state: 'st',
      code_challenge: 'ch',
      redirect_uri: 'https://app.test/auth/login',
      email: 'ana@acme.com',
    });
    expect(open).toHaveBeenCalledWith(
      'vscode://assistente.assistente-vscode/auth-callback?code=abc&state=st',
    );
  });

  it('only logs "No Firebase user found" without a user', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const submit = vi.fn();
    const open = vi.fn();
    const result = await runEditorHandoff({ state: 's', codeChallenge: 'c' }, 'https://app.test/auth/login', {
      currentUser: () => null,
      getIdToken: async () => null,
      submit,
      deepLink: () => 'vscode://x',
      open,
    });
    expect(result).toBe('no-user');
    expect(warn).toHaveBeenCalledWith('No Firebase user found');
    expect(submit).not.toHaveBeenCalled();
    expect(open).not.toHaveBeenCalled();
  });

  it('lets a bad answer fail (the page shows the error popup)', async () => {
    await expect(
      runEditorHandoff({ state: 's', codeChallenge: 'c' }, 'https://app.test/auth/login', {
        currentUser: () => user,
        getIdToken: async () => 'id',
        submit: async () => ({ redirect_uri: 'https://app.test/auth/login' }),
        deepLink: () => 'vscode://x',
        open: vi.fn(),
      }),
    ).rejects.toThrow('Auth code missing in redirect URL');
  });
});
