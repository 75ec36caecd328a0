import { afterEach, describe, expect, it, vi } from 'vitest';
import { authorizedRequestFor, createAuthorizedRequests, type ProductService } from './authorizedRequest.ts';

describe('authorized requests (uploads, downloads)', () => {
  it('carry the token and the domain hints, never the person’s e-mail in the URL', () => {
    const { url, headers } = authorizedRequestFor('https://api.test/', '/api/v1/chats/c1/export', {
      idToken: 'tok',
      user: { domain: 'acme.com', department: 'dep1' },
    });
    expect(headers.Authorization).toBe('Bearer tok');
    expect(Object.fromEntries(new URL(url).searchParams)).toEqual({ domain: 'acme.com', department: 'dep1' });
  });

  afterEach(() => vi.unstubAllGlobals());

  it('download from the service asked (chats unless told), named as the server says', async () => {
    const asked: ProductService[] = [];
    const { downloadFile } = createAuthorizedRequests(async (service) => {
      asked.push(service);
      return { baseUrl: `https://${service}.test`, context: { idToken: 'tok', user: null } };
    });
    const fetched: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        fetched.push(url);
        return new Response('key,label\r\n', {
          headers: { 'content-disposition': 'attachment; filename="usage-model-2026-03-01-2026-03-31.csv"' },
        });
      }),
    );
    // jsdom has no object URLs: the save is watched at the link's click.
    const objectUrls = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    const hadObjectUrls = typeof URL.revokeObjectURL === 'function';
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} });
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    await downloadFile('/api/v1/usage/export?format=csv', 'usage.csv', 'accounts');
    await downloadFile('/api/v1/chats/c1/export?format=md', 'chat.md');
    expect(asked).toEqual(['accounts', 'chats']);
    expect(fetched.map((u) => new URL(u).host)).toEqual(['accounts.test', 'chats.test']);
    expect(names[0]).toBe('usage-model-2026-03-01-2026-03-31.csv');
    click.mockRestore();
    // Kept where jsdom has none: the link's revoke runs on a timer after the test.
    if (hadObjectUrls) Object.assign(URL, objectUrls);
  });
});
