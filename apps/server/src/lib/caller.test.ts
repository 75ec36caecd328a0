import { describe, expect, it } from 'vitest';
import { CallerResolvers, callerKinds, type DomainRow, type UserRow, type VisitorCaller } from './caller.ts';
import { AppError } from './errors.ts';

const visitor: VisitorCaller = {
  kind: 'visitor',
  virtualAccount: {
    id: 'va',
    agentId: null,
    allowedOrigins: [],
    allowAttachments: false,
    limits: { messagesPerMinute: 1, messagesPerDay: 1 },
  },
  uid: 'va:va:v',
  sessionId: 's',
  user: {} as UserRow,
  visitorId: 'v',
  domain: { id: 'acme.com' } as DomainRow,
  premium: false,
};

describe('caller resolvers', () => {
  it('asks the declared kinds in order and answers the first that knows the token', async () => {
    const callers = new CallerResolvers();
    callers.register('visitor', { resolve: async (t) => (t === 'v' ? visitor : undefined) });
    expect(await callers.resolve(['user', 'visitor'], 'v')).toBe(visitor);
    await expect(callers.resolve(['user'], 'v')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(callers.resolve(['visitor'], 'x')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('tries the other kinds after a refusal, and reports the first refusal when none accepts', async () => {
    const callers = new CallerResolvers();
    callers.register('apiKey', {
      resolve: async () => {
        throw new AppError('FORBIDDEN', 'key revoked');
      },
    });
    callers.register('visitor', { resolve: async (t) => (t === 'v' ? visitor : undefined) });
    expect(await callers.resolve(['apiKey', 'visitor'], 'v')).toBe(visitor);
    await expect(callers.resolve(['apiKey', 'visitor'], 'x')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'key revoked',
    });
  });

  it('peeks only resolvers that have a fast path, and refuses a second resolver for a kind', () => {
    const callers = new CallerResolvers();
    callers.register('visitor', {
      resolve: async () => visitor,
      peek: (t) => (t === 'v' ? visitor : undefined),
    });
    expect(callers.peek(['user', 'visitor'], 'v')).toBe(visitor);
    expect(callers.peek(['visitor'], 'x')).toBeUndefined();
    expect(() => callers.register('visitor', { resolve: async () => undefined })).toThrow(/already/);
  });

  it('reads a route’s auth declaration as the kinds it admits', () => {
    expect(callerKinds(undefined)).toEqual([]);
    expect(callerKinds('public')).toEqual([]);
    expect(callerKinds('user')).toEqual(['user']);
    expect(callerKinds(['public', 'user', 'visitor'])).toEqual(['user', 'visitor']);
  });
});
