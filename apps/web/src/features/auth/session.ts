import type { Domain, User } from '@assistente/contracts';
import { createStore } from '@mantine/store';
import type { RequestUser } from '../../lib/http/client.ts';
import type { IdentityUser } from '../../lib/identity/user.ts';

/** Account session state (docs/ARCHITECTURE.md#sessions-and-the-identity-client): identity user, API user, domain, id token. */
export interface AccountSession {
  identityUser: IdentityUser | null;
  apiUser: User | null;
  domain: Domain | null;
  idToken: string | null;
}

/** Embedded session state (docs/ARCHITECTURE.md#sessions-and-the-identity-client): only a token, the API user and the domain. */
export interface EmbeddedSession {
  idToken: string | null;
  apiUser: User | null;
  domain: Domain | null;
}

export const emptyAccountSession: AccountSession = {
  identityUser: null,
  apiUser: null,
  domain: null,
  idToken: null,
};
export const emptyEmbeddedSession: EmbeddedSession = { idToken: null, apiUser: null, domain: null };

export const accountSession = createStore<AccountSession>({ ...emptyAccountSession });
export const embeddedSession = createStore<EmbeddedSession>({ ...emptyEmbeddedSession });

/** Authenticated in account mode: identity user, API user and id token all present (docs/ARCHITECTURE.md#sessions-and-the-identity-client). */
export function isAuthenticated(session: AccountSession): boolean {
  return Boolean(session.identityUser && session.apiUser && session.idToken);
}

/** The domain's effective premium flag (the server folds the allow-list into it). */
export function isPremium(domain: Domain | null): boolean {
  return domain?.premium === true;
}

export function toRequestUser(user: User | null): RequestUser | null {
  return user ? { domain: user.domain, department: user.department } : null;
}
