import type {
  Chat,
  Department,
  Domain,
  EmbeddedSession,
  Message,
  Santito,
  User,
} from '@assistente/contracts';
import { testApiUser } from './fakeServices.ts';

export const department = (patch: Partial<Department> = {}): Department => ({
  _id: 'dep-1',
  displayName: 'Geral',
  domain: 'acme.com',
  active: true,
  ...patch,
});

export const domain = (patch: Partial<Domain> = {}): Domain => ({
  _id: 'acme.com',
  domain: 'acme.com',
  active: true,
  displayName: 'Acme',
  cnpj: null,
  premium: false,
  isTrusted: true,
  creator: { name: 'Op', email: 'op@acme.com' },
  ...patch,
});

export const user = (patch: Partial<User> = {}): User => ({ ...testApiUser, ...patch });

export const CHAT_ID = '11111111-1111-4111-8111-111111111111';

export const chat = (patch: Partial<Chat> = {}): Chat => ({
  chatId: CHAT_ID,
  title: '',
  agentId: null,
  pinned: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...patch,
});

/** The user's first message of `chat()`. */
export const userMessage = (patch: Partial<Message> = {}): Message => ({
  messageId: '22222222-2222-4222-8222-222222222222',
  chatId: CHAT_ID,
  parentId: null,
  role: 'user',
  content: 'Olá',
  status: 'complete',
  createdAt: '2026-01-01T00:00:01.000Z',
  ...patch,
});

/** A visitor's session of the embed `va-1` ("Loja") of acme.com. */
export const visitorSession = (patch: Partial<EmbeddedSession> = {}): EmbeddedSession => ({
  idToken: 'id-1',
  refreshToken: 'refresh-1',
  expiresIn: '3600',
  user: { _id: 'va:va-1:v1', displayName: 'Visitor' },
  domain: { _id: 'acme.com', displayName: 'Acme' },
  virtualAccount: {
    virtualAccountId: 'va-1',
    displayName: 'Loja',
    color: '#aa0000',
    welcome: 'Olá!',
    allowAttachments: false,
    agent: null,
  },
  ...patch,
});

/** A santito of acme.com that its reader may edit. */
export const santito = (patch: Partial<Santito> = {}): Santito => ({
  _id: 'santito-1',
  domain: 'acme.com',
  name: 'Tradutor Jurídico',
  description: '',
  avatar: null,
  avatarUrl: null,
  instructions: '',
  model: null,
  starters: [],
  knowledge: [],
  tools: [],
  maxSteps: 8,
  visibility: 'domain',
  departmentId: null,
  authorId: 'ana@acme.com',
  canEdit: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...patch,
});
