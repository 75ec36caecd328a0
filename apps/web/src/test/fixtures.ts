import type { Department, Domain, User } from '@assistente/contracts';
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
