import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app.ts';
import { makeUser, type TestUser } from '../test/factories.ts';

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMITS: 'on' });
  user = await makeUser(t.ctx);
});

afterAll(async () => {
  await t?.close();
});

const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** A token shaped like ours whose subject nobody signed. */
const forged = () => `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ sub: randomUUID() })}.x`;

/** What is left of the bucket this request counted against. */
async function remaining(ip: string, authorization?: string): Promise<number> {
  const res = await t.app.inject({
    url: '/identity/jwks.json',
    remoteAddress: ip,
    headers: authorization ? { authorization } : {},
  });
  expect(res.statusCode).toBe(200);
  return Number(res.headers['x-ratelimit-remaining']);
}

describe('the general rate limit', () => {
  it('counts requests with a token nobody signed against their address, whatever its subject', async () => {
    const ip = '10.9.8.7';
    const first = await remaining(ip);
    expect(await remaining(ip, `Bearer ${forged()}`)).toBe(first - 1);
    expect(await remaining(ip, `Bearer ${forged()}`)).toBe(first - 2);
    expect(await remaining(ip, 'Bearer not-a-jwt')).toBe(first - 3);
  });

  it('counts a signed-in caller in their own bucket, from any address', async () => {
    const before = await remaining('10.1.1.1');
    const mine = await remaining('10.1.1.1', user.headers.authorization);
    expect(await remaining('10.2.2.2', user.headers.authorization)).toBe(mine - 1);
    // The address's own bucket did not pay for the caller's requests.
    expect(await remaining('10.1.1.1')).toBe(before - 1);
  });
});
