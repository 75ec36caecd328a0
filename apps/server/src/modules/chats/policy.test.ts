import { type Role, Roles } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import type { UserCaller, VisitorCaller } from '../../lib/caller.ts';
import {
  authorizeAttach,
  authorizeUpdate,
  chatOwnerId,
  mayAttach,
  mayReadShare,
  newChatAgent,
  type ShareAudienceOf,
  sharesPolicy,
} from './policy.ts';

const row = (id: string) => ({ id }) as UserCaller['user'];
const domain = { id: 'acme.com' } as UserCaller['domain'];
const person = { kind: 'user', user: row('ana@acme.com'), domain, role: 'Viewer' } as UserCaller;
const visitor = (allowAttachments: boolean): VisitorCaller =>
  ({
    kind: 'visitor',
    user: row('va:v1:x'),
    domain,
    virtualAccount: { id: 'v1', agentId: 'embed-santito', allowAttachments },
  }) as VisitorCaller;

describe('chats policy: a visitor is its own kind, not a disguised user', () => {
  it('a visitor owns the chats of their own stored row, as a person owns theirs', () => {
    expect(chatOwnerId(person)).toBe('ana@acme.com');
    expect(chatOwnerId(visitor(false))).toBe('va:v1:x');
  });

  it('a visitor’s new chat talks to the embed’s santito, whatever they ask for', () => {
    expect(newChatAgent(person, 'other')).toBe('other');
    expect(newChatAgent(person, undefined)).toBeNull();
    expect(newChatAgent(visitor(false), 'other')).toBe('embed-santito');
  });

  it('a visitor may rename a chat but not change its parameters', () => {
    expect(() => authorizeUpdate(visitor(false), { title: 'x' })).not.toThrow();
    expect(() => authorizeUpdate(visitor(false), { params: {} })).toThrow(/parameters/);
    expect(() => authorizeUpdate(person, { params: {} })).not.toThrow();
  });

  it('a visitor attaches files only when the embed allows it', () => {
    expect(mayAttach(person)).toBe(true);
    expect(mayAttach(visitor(true))).toBe(true);
    expect(mayAttach(visitor(false))).toBe(false);
    expect(() => authorizeAttach(visitor(false))).toThrow(/attachments/);
  });
});

describe('share links: who reads, revokes and sets them', () => {
  const reader = (id: string, domainId: string, departmentId: string, role: Role = 'Viewer') =>
    ({
      kind: 'user',
      user: { id, departmentId } as UserCaller['user'],
      domain: { id: domainId } as UserCaller['domain'],
      role,
    }) as UserCaller;
  const link = (audience: ShareAudienceOf['audience']): ShareAudienceOf => ({
    userId: 'ana@acme.com',
    domainId: 'acme.com',
    departmentId: 'sales',
    audience,
  });
  const owner = reader('ana@acme.com', 'acme.com', 'sales');
  const sameDept = reader('bia@acme.com', 'acme.com', 'sales');
  const otherDept = reader('caio@acme.com', 'acme.com', 'legal', 'Admin');
  const outsider = reader('dan@other.com', 'other.com', 'sales', 'SuperAdmin');

  it('domain and department links: their people and the owner; nobody of another domain', () => {
    for (const allowed of [false, true]) {
      expect(
        [owner, sameDept, otherDept, outsider, null].map((r) => mayReadShare(r, link('domain'), allowed)),
      ).toEqual([true, true, true, false, false]);
      expect(
        [owner, sameDept, otherDept, outsider, null].map((r) => mayReadShare(r, link('department'), allowed)),
      ).toEqual([true, true, false, false, false]);
    }
  });

  it('a public link is anyone’s while allowed, and the domain’s when not', () => {
    expect([owner, otherDept, outsider, null].every((r) => mayReadShare(r, link('public'), true))).toBe(true);
    expect([owner, otherDept, outsider, null].map((r) => mayReadShare(r, link('public'), false))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it.each(Roles)(
    '%s: revokes their own links and, as an Admin, their domain’s; sets sharing as an Admin',
    (role) => {
      const me = reader('eva@acme.com', 'acme.com', 'sales', role);
      const admin = role === 'Admin' || role === 'SuperAdmin';
      expect(sharesPolicy.can(me, 'revoke', { userId: 'eva@acme.com', domain: 'acme.com' })).toBe(true);
      expect(sharesPolicy.can(me, 'revoke', { userId: 'ana@acme.com', domain: 'acme.com' })).toBe(admin);
      expect(sharesPolicy.can(me, 'revoke', { userId: 'dan@other.com', domain: 'other.com' })).toBe(
        role === 'SuperAdmin',
      );
      expect(sharesPolicy.can(me, 'manageSettings', 'acme.com')).toBe(admin);
      expect(sharesPolicy.can(me, 'manageSettings', 'other.com')).toBe(role === 'SuperAdmin');
    },
  );
});
