import type { RuntimeConfig } from '@assistente/contracts';
import type { HttpClient, RequestContext } from '../../lib/http/client.ts';
import { HttpError } from '../../lib/http/errors.ts';
import { lazyHttpClient } from '../../lib/http/lazyClient.ts';
import { IdentityAuth } from '../../lib/identity/auth.ts';
import { createIdentityClient, type IdentityClient } from '../../lib/identity/client.ts';
import { IdentityError } from '../../lib/identity/errors.ts';
import { selectPersistence } from '../../lib/identity/persistence.ts';
import { recheckAccess } from './accessLost.ts';
import type { AccountApi } from './api.ts';
import { embeddedIdToken, loseEmbeddedSession } from './embedded.ts';
import { type AuthMachine, createAuthMachine } from './internal/authMachine.ts';
import { accountSession, embeddedSession, isAuthenticated, isEmbeddedPath } from './session.ts';

export interface AuthServices {
  config: RuntimeConfig;
  identity: IdentityClient;
  auth: IdentityAuth;
  machine: AuthMachine;
  accountApi: AccountApi;
  /** Account manager (`accountManagerUrl`). */
  accountHttp: HttpClient;
  /** Code assist (`codeAssistUrl`). */
  codeAssistHttp: HttpClient;
  /** Chats manager (`chatsManagerUrl`). */
  chatsHttp: HttpClient;
}

let services: AuthServices | null = null;

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Product calls carry the session of the page: embedded pages use the embedded one. */
export function productClient(baseUrl: () => string, auth: IdentityAuth): HttpClient {
  return lazyHttpClient({
    baseUrl,
    onUnauthorized: () => {
      if (isEmbeddedPath(window.location.pathname)) loseEmbeddedSession();
      else accessDenied('unauthenticated');
    },
    async context(): Promise<RequestContext> {
      if (isEmbeddedPath(window.location.pathname)) {
        return { idToken: await embeddedIdToken(), user: embeddedSession.getState().apiUser };
      }
      return accountContext(auth);
    },
  });
}

/** The signed-in account's token and user, as product calls send them. */
export async function accountContext(auth: IdentityAuth): Promise<RequestContext> {
  const idToken = await auth.getIdToken().catch(() => null);
  return { idToken, user: accountSession.getState().apiUser };
}

/**
 * The account API, loaded with its response schemas on first use: a signed-out visit (the login
 * page) never downloads the schema library.
 */
export function lazyAccountApi(http: HttpClient): AccountApi {
  let api: Promise<AccountApi> | null = null;
  const load = () => {
    api ??= import('./api.ts').then((module) => module.createAccountApi(http));
    return api;
  };
  return {
    getUserByEmail: async (email) => (await load()).getUserByEmail(email),
    getDomain: async (domainId, as) => (await load()).getDomain(domainId, as),
    listDepartments: async () => (await load()).listDepartments(),
    updateUser: async (user) => (await load()).updateUser(user),
  };
}

/** Builds the identity client, auth and API clients and starts the auth listener. */
export function initAuthServices(
  config: RuntimeConfig,
  hooks: { setLoadingAuth: (loading: boolean) => void },
): AuthServices {
  if (services) return services;
  const identity = createIdentityClient({
    baseUrl: () => config.identity.baseUrl,
    apiKey: () => config.identity.apiKey,
  });
  const auth = new IdentityAuth({
    client: identity,
    apiKey: config.identity.apiKey,
    persistence: selectPersistence(),
    locks: typeof navigator !== 'undefined' && 'locks' in navigator ? navigator.locks : null,
    signalStorage: safeLocalStorage(),
    events: window,
  });
  const accountHttp = productClient(() => config.accountManagerUrl, auth);
  // The account session's own calls always carry the account token, whatever page is open: with
  // an embedded page's (absent) token its user fetch got a 401 and signed the account out.
  const accountApi = lazyAccountApi(
    lazyHttpClient({
      baseUrl: () => config.accountManagerUrl,
      context: () => accountContext(auth),
      onUnauthorized: () => accessDenied('unauthenticated'),
    }),
  );
  const machine = createAuthMachine({
    auth,
    api: accountApi,
    session: accountSession,
    setLoadingAuth: hooks.setLoadingAuth,
  });
  // Embedded pages (another site's iframe) never touch the account session (spec §2).
  if (isEmbeddedPath(window.location.pathname)) hooks.setLoadingAuth(false);
  else machine.start();
  services = {
    config,
    identity,
    auth,
    machine,
    accountApi,
    accountHttp,
    codeAssistHttp: productClient(() => config.codeAssistUrl, auth),
    chatsHttp: productClient(() => config.chatsManagerUrl, auth),
  };
  return services;
}

/**
 * The server refused the account session (a 401, or the agents socket closed 4401/4403): find out
 * whether access is gone and, if so, sign this tab out with the reason (accessLost.ts).
 */
export function accessDenied(kind: 'unauthenticated' | 'forbidden'): void {
  // Signed out already (or signing out): a refusal then is expected, nothing to find out.
  if (!services || !isAuthenticated(accountSession.getState())) return;
  const { auth, machine } = services;
  void recheckAccess(kind, { refresh: () => auth.getIdToken(true), signOut: () => machine.signOut() });
}

export function authServices(): AuthServices {
  if (!services) throw new Error('Auth services are not initialised');
  return services;
}

/** Test hook: replaces the services. */
export function setAuthServices(value: AuthServices | null): void {
  services = value;
}

/**
 * Signs in with email and password and establishes the account session. Throws an
 * `IdentityError` (wrong credentials, disabled, throttled, network, no account here).
 */
export async function signInWithPassword(email: string, password: string): Promise<void> {
  const { auth, machine } = authServices();
  machine.start({ emitInitial: false });
  await auth.signInWithEmailAndPassword(email, password);
  await accountEstablished(machine);
}

/**
 * Finishes a single sign-on with the one-time code its callback left in the login page's fragment,
 * and establishes the account session as a password sign-in does.
 */
export async function signInWithSso(code: string, providerId: string): Promise<void> {
  const { auth, machine } = authServices();
  machine.start({ emitInitial: false });
  await auth.signInWithIdp(code, providerId, `${window.location.origin}/auth/login`);
  await accountEstablished(machine);
}

/** Waits for the account session after a sign-in; throws an `IdentityError` saying why it failed. */
async function accountEstablished(machine: AuthServices['machine']): Promise<void> {
  const outcome = await machine.settled();
  if (outcome.status === 'authenticated' && isAuthenticated(accountSession.getState())) return;
  const error = outcome.status === 'signed-out' ? outcome.error : undefined;
  if (error instanceof IdentityError) throw error;
  if (error instanceof HttpError && error.status === null)
    throw new IdentityError('auth/network-request-failed');
  if (error instanceof HttpError && error.status === 404) throw new IdentityError('auth/user-not-found');
  throw new IdentityError('auth/internal-error', undefined, undefined, { cause: error });
}

export async function signOut(): Promise<void> {
  await authServices().machine.signOut();
}
