import { z } from 'zod';

/**
 * An http(s) address an Admin types for the server to reach (a provider, a Confluence site, an
 * issuer). Credentials never go in it: they have fields of their own, stored sealed. `plain` also
 * refuses a query and a fragment (an OpenID issuer is compared as written).
 */
export function httpUrlSchema(messages: { scheme?: string; credentials: string }, plain = false) {
  return z
    .string()
    .trim()
    .max(2048)
    .url()
    .refine((u) => /^https?:\/\//i.test(u), messages.scheme ?? 'Only http and https URLs are allowed')
    .refine((u) => {
      try {
        const url = new URL(u);
        return !url.username && !url.password && (!plain || (!url.search && !url.hash));
      } catch {
        return false;
      }
    }, messages.credentials);
}
