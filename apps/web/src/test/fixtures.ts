import type { Chat, Department, Domain, Message, User } from '@assistente/contracts';
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
