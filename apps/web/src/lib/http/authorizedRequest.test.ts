import { describe, expect, it } from 'vitest';
import { authorizedRequestFor } from './authorizedRequest.ts';

describe('authorized requests (uploads, downloads)', () => {
  it('carry the token and the domain hints, never the person’s e-mail in the URL', () => {
    const { url, headers } = authorizedRequestFor('https://api.test/', '/api/v1/chats/c1/export', {
      idToken: 'tok',
      user: { domain: 'acme.com', department: 'dep1' },
    });
    expect(headers.Authorization).toBe('Bearer tok');
    expect(Object.fromEntries(new URL(url).searchParams)).toEqual({ domain: 'acme.com', department: 'dep1' });
  });
});
