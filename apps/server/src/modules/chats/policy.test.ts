import { describe, expect, it } from 'vitest';
import type { UserCaller, VisitorCaller } from '../../lib/caller.ts';
import { authorizeAttach, authorizeUpdate, chatOwnerId, mayAttach, newChatAgent } from './policy.ts';

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
