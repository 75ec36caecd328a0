import type { RuntimeConfig } from '@assistente/contracts';
import type { MantineStore } from '@mantine/store';
import { type ApiClient, createApiClient, type RequestContext } from '../../lib/http/client.ts';
import { HttpError } from '../../lib/http/errors.ts';
import { IdentityAuth } from '../../lib/identity/auth.ts';
import { createIdentityClient, type IdentityClient } from '../../lib/identity/client.ts';
import { IdentityError } from '../../lib/identity/errors.ts';
import { selectPersistence } from '../../lib/identity/persistence.ts';
import { recheckAccess } from './accessLost.ts';
import type { AccountApi } from './api.ts';
import { visitorCaller } from './embedded.ts';
import { type AuthMachine, createAuthMachine } from './internal/authMachine.ts';
import { accountSession, isAuthenticated } from './session.ts';

/**
 * Who a page's product calls go as: the signed-in account on the app's pages, the embed's visitor
 * on the embedded chat's page (docs/ARCHITECTURE.md#embedded-chat). Each page knows which from the start.
 */
export interface PageCaller {
  /** The token and user a product call carries. */
  context(): Promise<RequestContext>;
  /** The caller's id token, renewed when it is about to expire; null without a session. */
  idToken(): Promise<string | null>;
  /** The server refused the caller (a 401, or the agents socket closed 4401/4403). */
  refused(kind: 'unauthenticated' | 'forbidden'): void;
  /** The caller's session: live connections end when its token goes. */
  session: Pick<MantineStore<{ idToken: string | null }>, 'getState' | 'subscribe'>;
}

/** What every page's product calls need. */
export interface ProductServices {
  config: RuntimeConfig;
  identity: IdentityClient;
  caller: PageCaller;
  /** Account manager (`accountManagerUrl`). */
  accountHttp: ApiClient;
  /** Code assist (`codeAssistUrl`). */
  codeAssistHttp: ApiClient;
  /** Chats manager (`chatsManagerUrl`). */
  chatsHttp: ApiClient;
}

/** The app's pages' services: the product's, and the signed-in account's own. */
export interface AuthServices extends ProductServices {
  auth: IdentityAuth;
  machine: AuthMachine;
  accountApi: AccountApi;
}

let services: ProductServices | null = null;

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The API client of one product service, whose calls go as the page's caller. */
export function productClient(baseUrl: string, caller: PageCaller): ApiClient {
  return createApiClient({
    baseUrl,
    onUnauthorized: () => caller.refused('unauthenticated'),
    context: () => caller.context(),
  });
}

/** The signed-in account as the caller of the app's pages. */
export function accountCaller(auth: IdentityAuth): PageCaller {
  return {
    context: () => accountContext(auth),
    idToken: () => auth.getIdToken(),
    refused: accessDenied,
    session: accountSession,
  };
}

/** The signed-in account's token and user, as product calls send them. */
async function accountContext(auth: IdentityAuth): Promise<RequestContext> {
  const idToken = await auth.getIdToken().catch(() => null);
  return { idToken, user: accountSession.getState().apiUser };
}

/**
 * The account API, loaded with its response schemas on first use: a signed-out visit (the login
 * page) never downloads the schema library.
 */
export function lazyAccountApi(client: ApiClient): AccountApi {
  let api: Promise<AccountApi> | null = null;
  const load = () => {
    api ??= import('./api.ts').then((module) => module.createAccountApi(client));
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
  if (services && isAuthServices(services)) return services;
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
  const caller = accountCaller(auth);
  // The account session's own calls always carry the account token, whatever page is open: with
  // an embedded page's (absent) token its user fetch got a 401 and signed the account out.
  const accountApi = lazyAccountApi(
    createApiClient({
      baseUrl: config.accountManagerUrl,
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
  machine.start();
  const account: AuthServices = {
    config,
    identity,
    caller,
    auth,
    machine,
    accountApi,
    accountHttp: productClient(config.accountManagerUrl, caller),
    codeAssistHttp: productClient(config.codeAssistUrl, caller),
    chatsHttp: productClient(config.chatsManagerUrl, caller),
  };
  services = account;
  return account;
}

/**
 * The embedded chat page's services (docs/ARCHITECTURE.md#embedded-chat): its calls go as the embed's visitor, and it
 * has no account session to start — nor the code for one.
 */
export function initVisitorServices(config: RuntimeConfig): ProductServices {
  if (services) return services;
  const caller = visitorCaller;
  services = {
    config,
    identity: createIdentityClient({
      baseUrl: () => config.identity.baseUrl,
      apiKey: () => config.identity.apiKey,
    }),
    caller,
    accountHttp: productClient(config.accountManagerUrl, caller),
    codeAssistHttp: productClient(config.codeAssistUrl, caller),
    chatsHttp: productClient(config.chatsManagerUrl, caller),
  };
  return services;
}

/**
 * The server refused the account session (a 401, or the agents socket closed 4401/4403): find out
 * whether access is gone and, if so, sign this tab out with the reason (accessLost.ts).
 */
export function accessDenied(kind: 'unauthenticated' | 'forbidden'): void {
  // Signed out already (or signing out): a refusal then is expected, nothing to find out.
  if (!services || !isAuthServices(services) || !isAuthenticated(accountSession.getState())) return;
  const { auth, machine } = services;
  void recheckAccess(kind, { refresh: () => auth.getIdToken(true), signOut: () => machine.signOut() });
}

function isAuthServices(value: ProductServices): value is AuthServices {
  return 'machine' in value;
}

/** The services of the page, whoever its caller. */
export function productServices(): ProductServices {
  if (!services) throw new Error('Services are not initialised');
  return services;
}

/**
 * The app's pages' services, the account's included. The embedded chat's page has none: what it
 * shows (the chat's data) takes its clients from `productServices()`.
 */
export function authServices(): AuthServices {
  const value = productServices();
  if (!isAuthServices(value)) throw new Error('The embedded chat’s page has no account services');
  return value;
}

/** Test hook: replaces the services. */
export function setAuthServices(value: ProductServices | null): void {
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
