import type { RuntimeConfig, SsoLoginOption, User } from '@assistente/contracts';
import { vi } from 'vitest';
import { type AuthServices, accountCaller, setAuthServices } from '../features/auth/services.ts';
import { accountSession, emptyAccountSession } from '../features/auth/session.ts';
import type { IdentityAuth } from '../lib/identity/auth.ts';
import type { IdentityUser } from '../lib/identity/user.ts';
import { fakeApi } from './fakeHttp.ts';

export const testConfig: RuntimeConfig = {
  appUrl: 'http://localhost:3000',
  projectId: 'assistente',
  chatsManagerUrl: '',
  accountManagerUrl: '',
  codeAssistUrl: '',
  agentsWsUrl: 'ws://localhost/api/v1/agents/chat/',
  identity: { apiKey: 'key', authDomain: 'localhost', projectId: 'assistente', baseUrl: '/identity' },
  storageBucket: 'assistente-chats',
  editorDeepLink: 'vscode://assistente.assistente-vscode/auth-callback',
  editorCallbackOrigins: ['http://127.0.0.2:8080'],
  uploadMaxBytes: 20 * 1024 * 1024,
  buildId: 'test',
};

/** An identity account as the identity client answers it, signed in as Ana. */
export const identityUser = (patch: Partial<IdentityUser> = {}): IdentityUser => ({
  uid: 'u1',
  email: 'ana@acme.com',
  emailVerified: true,
  displayName: 'Ana Souza',
  photoURL: null,
  phoneNumber: null,
  isAnonymous: false,
  tenantId: null,
  providerData: [],
  metadata: { creationTime: null, lastSignInTime: null },
  stsTokenManager: { accessToken: 'id-1', refreshToken: 'refresh-1', expirationTime: Date.now() + 3_600_000 },
  ...patch,
});

export const testIdentityUser: IdentityUser = identityUser();

export const testApiUser: User = {
  _id: 'ana@acme.com',
  active: true,
  displayName: 'Ana Souza',
  email: 'ana@acme.com',
  domain: 'acme.com',
  department: 'dep-1',
  role: 'Viewer',
  type: 'user',
  creator: { name: 'Op', email: 'op@acme.com' },
  eula: {
    accept: true,
    timestamp: null,
    version: 'v1',
    pendingRevision: false,
    pendingTimestamp: null,
    isPrivacyPolicy: true,
  },
};

/** Installs stand-in services; `signIn` decides what a sign-in does. */
export function installFakeServices() {
  const auth = {
    currentUser: null as IdentityUser | null,
    signInWithEmailAndPassword: vi.fn(async (_email: string, _password: string) => testIdentityUser),
    getIdToken: vi.fn(async () => 'id-1'),
    signOut: vi.fn(async () => {}),
    changePassword: vi.fn(async (_current: string, _next: string) => {}),
    signInWithIdp: vi.fn(async (_code: string, _providerId: string, _requestUri: string) => testIdentityUser),
  };
  const machine = {
    start: vi.fn(),
    stop: vi.fn(),
    listening: true,
    signOut: vi.fn(async () => accountSession.setState({ ...emptyAccountSession })),
    handle: vi.fn(),
    settled: vi.fn(async () => ({ status: 'authenticated' as const })),
  };
  const identity = {
    signInWithPassword: vi.fn(),
    refreshIdToken: vi.fn(),
    revokeToken: vi.fn(),
    sendPasswordResetEmail: vi.fn(async () => {}),
    verifyPasswordResetCode: vi.fn(async () => 'ana@acme.com'),
    confirmPasswordReset: vi.fn(async () => 'ana@acme.com'),
    getPasswordPolicy: vi.fn(async () => ({
      customStrengthOptions: { minPasswordLength: 8, containsNumericCharacter: true },
      allowedNonAlphanumericCharacters: [],
      enforcementState: 'ENFORCE' as const,
      forceUpgradeOnSignin: false,
      schemaVersion: 1 as const,
    })),
    updatePassword: vi.fn(),
    signInWithIdp: vi.fn(),
    listSsoProviders: vi.fn(async (): Promise<SsoLoginOption[]> => []),
  };
  const accountApi = {
    getUserByEmail: vi.fn(async (_email: string) => testApiUser),
    getDomain: vi.fn(),
    listDepartments: vi.fn(async () => []),
    updateUser: vi.fn(async (user: User) => user),
  };
  const codeAssistHttp = fakeApi();
  const services = {
    config: testConfig,
    identity,
    caller: accountCaller(auth as unknown as IdentityAuth),
    auth,
    machine,
    accountApi,
    accountHttp: fakeApi(),
    codeAssistHttp,
    chatsHttp: fakeApi(),
  };
  setAuthServices(services as unknown as AuthServices);
  return services;
}

export function signInSession(patch: Partial<User> = {}, premium = false): void {
  accountSession.setState({
    identityUser: testIdentityUser,
    apiUser: { ...testApiUser, ...patch },
    domain: {
      _id: 'acme.com',
      domain: 'acme.com',
      active: true,
      displayName: 'Acme',
      cnpj: null,
      premium,
      isTrusted: true,
      creator: { name: 'Op', email: 'op@acme.com' },
    },
    idToken: 'id-1',
  });
}

export function resetSession(): void {
  accountSession.setState({ ...emptyAccountSession });
  setAuthServices(null);
}
