import type { LoginSubmitRequest } from '@assistente/contracts';
import { describe, expect, it, vi } from 'vitest';
import type { IdentityUser } from '../../lib/identity/user.ts';
import {
  editorDeepLinkUrl,
  editorTarget,
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

  it('carries a browser-hosted editor’s callback when it sends one', () => {
    const cb = 'http://127.0.0.2:8080/callback?vscode-reqid=1&vscode-scheme=code-oss';
    const search = new URLSearchParams({
      provider: 'authkit',
      code_challenge: 'abc',
      state: 's',
      callback: cb,
    });
    expect(readHandoffQuery(search)).toEqual({ codeChallenge: 'abc', state: 's', callback: cb });
  });
});

describe('editorTarget', () => {
  const allowed = ['http://127.0.0.2:8080', 'https://code.acme.com'];

  it('uses the configured deep link when the editor sent no callback', () => {
    expect(editorTarget(undefined, allowed)).toEqual({ kind: 'deep-link' });
  });

  it('offers an allow-listed callback for confirmation, keeping its path and query', () => {
    expect(editorTarget('http://127.0.0.2:8080/stable/callback?vscode-reqid=7', allowed)).toEqual({
      kind: 'callback',
      origin: 'http://127.0.0.2:8080',
      url: 'http://127.0.0.2:8080/stable/callback?vscode-reqid=7',
    });
  });

  it('refuses any other origin, scheme or credentials in the address', () => {
    for (const cb of [
      'http://127.0.0.2:8081/callback',
      'https://code.acme.com.evil.test/callback',
      'http://code.acme.com/callback',
      'javascript:alert(1)',
      'https://user:pw@code.acme.com/callback',
      'not a url',
    ]) {
      expect(editorTarget(cb, allowed).kind, cb).toBe('refused');
    }
    expect(editorTarget('https://evil.test/x', [])).toEqual({ kind: 'refused', origin: 'https://evil.test' });
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
