import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerFailureOf } from '../modules/providers/errors.ts';
import { type LlmFixture, startLlmFixture } from '../test/llm-fixture.ts';
import {
  assertUrlAllowed,
  BlockedUrlError,
  createGuardedHttp,
  isPublicAddress,
  matchesAllowlist,
} from './ssrf.ts';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '[::ffff:10.0.0.1]',
    // IPv4-translated (SIIT), compatible and ISATAP forms embed the address too.
    '::ffff:0:127.0.0.1',
    '[::ffff:0:7f00:1]',
    '::ffff:0:169.254.169.254',
    '::127.0.0.1',
    '::1:0:0',
    '2606:4700::5efe:10.0.0.1',
    '2606:4700::200:5efe:192.168.0.1',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    'fd00:ec2::254',
    'fc00::1',
    'fe80::1%eth0',
    'ff02::1',
    '2001:db8::1',
    'not an ip',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '::ffff:0:8.8.8.8',
    '2002:0808:0808::',
  ])('accepts %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('matchesAllowlist', () => {
  const url = (u: string) => new URL(u);
  it('matches host, host:port, wildcard and IPv6 patterns', () => {
    expect(matchesAllowlist(url('http://127.0.0.1:8080/v1'), ['127.0.0.1:8080'])).toBe(true);
    expect(matchesAllowlist(url('http://127.0.0.1:8081/v1'), ['127.0.0.1:8080'])).toBe(false);
    expect(matchesAllowlist(url('http://ollama.internal:11434'), ['ollama.internal'])).toBe(true);
    expect(matchesAllowlist(url('https://a.corp.example/v1'), ['*.corp.example'])).toBe(true);
    expect(matchesAllowlist(url('https://corp.example/v1'), ['*.corp.example'])).toBe(false);
    expect(matchesAllowlist(url('https://evilcorp.example/v1'), ['*.corp.example'])).toBe(false);
    expect(matchesAllowlist(url('http://[::1]:11434/'), ['[::1]:11434'])).toBe(true);
    expect(matchesAllowlist(url('https://x.test/'), ['x.test:443'])).toBe(true);
    expect(matchesAllowlist(url('http://x.test/'), [])).toBe(false);
  });
});

/** A resolver that answers from a table, so DNS-based refusals are tested without the network. */
function fakeLookup(table: Record<string, string[]>) {
  return ((hostname: string, _opts: unknown, cb: (e: Error | null, a: LookupAddress[]) => void) => {
    const addrs = table[hostname];
    if (!addrs) {
      const e = Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return cb(e, []);
    }
    cb(
      null,
      addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  }) as never;
}

describe('assertUrlAllowed', () => {
  const lookup = fakeLookup({
    'public.test': ['93.184.216.34'],
    'rebind.test': ['93.184.216.34', '10.0.0.5'],
    'metadata.test': ['169.254.169.254'],
    'v6local.test': ['::1'],
  });
  const opts = { allowlist: [], lookup };

  it('accepts a host resolving only to public addresses', async () => {
    await expect(assertUrlAllowed('https://public.test/v1', opts)).resolves.toBeUndefined();
  });

  it.each([
    'http://127.0.0.1:11434',
    'http://169.254.169.254/latest/meta-data',
    'http://10.1.2.3/v1',
    'http://[::1]/v1',
    'http://[::ffff:127.0.0.1]/v1',
    'http://metadata.test/',
    'http://rebind.test/',
    'http://v6local.test/',
    'http://unknown.test/',
    'file:///etc/passwd',
    'http://user:pw@public.test/',
  ])('refuses %s', async (u) => {
    await expect(assertUrlAllowed(u, opts)).rejects.toBeInstanceOf(BlockedUrlError);
  });

  it('lets an allowlisted private host through', async () => {
    await expect(
      assertUrlAllowed('http://127.0.0.1:11434/api', { allowlist: ['127.0.0.1:11434'], lookup }),
    ).resolves.toBeUndefined();
  });
});

describe('createGuardedHttp', () => {
  let fx: LlmFixture;
  let other: LlmFixture;
  beforeAll(async () => {
    fx = await startLlmFixture();
    other = await startLlmFixture();
  });
  afterAll(async () => {
    await Promise.all([fx.close(), other.close()]);
  });

  it('refuses a loopback URL that is not allowlisted, without connecting', async () => {
    const { fetch, close } = createGuardedHttp({ allowlist: [] });
    fx.reset();
    await expect(fetch(`${fx.baseUrl}/models`)).rejects.toBeInstanceOf(BlockedUrlError);
    expect(fx.requests).toHaveLength(0);
    await close();
  });

  it('reaches an allowlisted host:port', async () => {
    const { fetch, close } = createGuardedHttp({ allowlist: [`127.0.0.1:${fx.port}`] });
    const res = await fetch(`${fx.baseUrl}/models`);
    expect(res.status).toBe(200);
    await close();
  });

  it('re-checks every redirect: to metadata, to another private port', async () => {
    const { fetch, close } = createGuardedHttp({ allowlist: [`127.0.0.1:${fx.port}`] });
    fx.setScript({ redirectTo: 'http://169.254.169.254/latest/meta-data/' });
    await expect(fetch(`${fx.baseUrl}/models`)).rejects.toBeInstanceOf(BlockedUrlError);
    fx.setScript({ redirectTo: `${other.baseUrl}/models` });
    other.reset();
    await expect(fetch(`${fx.baseUrl}/models`)).rejects.toBeInstanceOf(BlockedUrlError);
    expect(other.requests).toHaveLength(0);
    fx.reset();
    await close();
  });

  it('applies the same rule to `request` (streaming answers): redirects re-checked, body kept on 307, credentials not', async () => {
    const { request, close } = createGuardedHttp({
      allowlist: [`127.0.0.1:${fx.port}`, `127.0.0.1:${other.port}`],
    });
    const post = () =>
      request(`${fx.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer secret' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      });
    fx.setScript({ redirectTo: 'http://169.254.169.254/latest/meta-data/' });
    await expect(post()).rejects.toBeInstanceOf(BlockedUrlError);

    fx.setScript({ redirectTo: `${other.baseUrl}/chat/completions` });
    other.reset();
    const res = await post();
    expect(res.statusCode).toBe(200);
    await res.body.text();
    const seen = other.chatRequests()[0];
    expect((seen?.body as { model?: string } | undefined)?.model).toBe('m');
    expect(seen?.headers.authorization).toBeUndefined();
    fx.reset();
    await close();
  });

  it('checks the address it connects to, so a DNS answer changing after the check (rebinding) is refused', async () => {
    let calls = 0;
    const rebinding = ((_host: string, _opts: unknown, cb: (e: Error | null, a: LookupAddress[]) => void) => {
      calls++;
      cb(null, [{ address: calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }]);
    }) as never;
    // Saved while it resolved to a public address…
    await expect(
      assertUrlAllowed(`http://rebind.test:${fx.port}/v1`, { allowlist: [], lookup: rebinding }),
    ).resolves.toBeUndefined();
    // …and refused when the connection's own lookup answers a private one.
    const { fetch, close } = createGuardedHttp({ allowlist: [], lookup: rebinding });
    fx.reset();
    const err = await fetch(`http://rebind.test:${fx.port}/v1/models`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(providerFailureOf(err)).toEqual({ code: 'unreachable', address: 'private', host: 'rebind.test' });
    expect(calls).toBe(2);
    expect(fx.requests).toHaveLength(0);
    await close();
  });

  it('needs no DNS answer up front for a request: a host that does not resolve fails at connect', async () => {
    const { fetch, close } = createGuardedHttp({ allowlist: [] });
    await expect(fetch('http://does-not-exist.invalid/v1/models')).rejects.toThrow();
    await close();
  });

  it('follows an allowed redirect and keeps a POST body on 307', async () => {
    const { fetch, close } = createGuardedHttp({
      allowlist: [`127.0.0.1:${fx.port}`, `127.0.0.1:${other.port}`],
    });
    fx.setScript({ redirectTo: `${other.baseUrl}/chat/completions` });
    other.reset();
    const res = await fetch(`${fx.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer secret' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    const seen = other.chatRequests()[0];
    expect((seen?.body as { model?: string } | undefined)?.model).toBe('m');
    // Another origin: the credentials stay behind.
    expect(seen?.headers.authorization).toBeUndefined();
    fx.reset();
    await close();
  });
});
