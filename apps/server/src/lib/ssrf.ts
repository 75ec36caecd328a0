import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, isIPv4 } from 'node:net';
import type { AddressProblem, UrlBlockedDetail } from '@assistente/contracts';
import type { Agent, Dispatcher } from 'undici';
import { AppError } from './errors.ts';

/**
 * undici, loaded by the first outbound request: most of a start's code was libraries only a later
 * request needs (docs/ARCHITECTURE.md#build-and-run).
 */
let undiciModule: Promise<typeof import('undici')> | undefined;
const loadUndici = () => {
  // The CommonJS module itself is the namespace's `default`, bundled or not: a bundle's dynamic
  // import of a CommonJS package has no named exports.
  undiciModule ??= import('undici').then((m) => (m as unknown as { default?: typeof m }).default ?? m);
  return undiciModule;
};

/**
 * The SSRF rule of docs/ARCHITECTURE.md#model-providers: a provider URL set by a domain Admin must resolve to a public
 * address, or match PROVIDER_URL_ALLOWLIST; checked after DNS resolution (at connect time, so
 * a DNS answer cannot change between the check and the connection) and on every redirect.
 */
export class BlockedUrlError extends Error {
  override name = 'BlockedUrlError';
  constructor(
    readonly url: string,
    readonly reason: AddressProblem,
    message: string,
    /** The host asked for, and the private address it is or resolved to. */
    readonly where: { host?: string; address?: string } = {},
  ) {
    super(message);
  }
}

/** How long resolving an Admin-typed host may take: a resolver that keeps retrying is a name that does not resolve. */
const RESOLVE_TIMEOUT_MS = 3_000;

/** What went wrong reaching an address, read from a connection error (and its causes). */
export function addressProblemOf(err: unknown): AddressProblem | undefined {
  for (let e = err, depth = 0; e && depth < 6; depth++) {
    if (e instanceof BlockedUrlError) return e.reason;
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'unresolvable';
    if (code === 'ECONNREFUSED') return 'refused';
    if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT')
      return 'timeout';
    if (e instanceof Error && e.name === 'TimeoutError') return 'timeout';
    e = e instanceof Error ? e.cause : undefined;
  }
  return undefined;
}

function parseIPv4(ip: string): number[] | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  const out = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  return out.every((n) => n >= 0 && n <= 255) ? out : undefined;
}

/** 8 hextets of an IPv6 address (dotted IPv4 tail and zone ids handled), or undefined. */
function parseIPv6(input: string): number[] | undefined {
  let ip = input.replace(/^\[|\]$/g, '');
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  const lastColon = ip.lastIndexOf(':');
  const last = ip.slice(lastColon + 1);
  if (last.includes('.')) {
    // A dotted IPv4 tail (::ffff:127.0.0.1) becomes its two hextets.
    const v4 = parseIPv4(last);
    if (!v4) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    ip = `${ip.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = ip.split('::');
  if (halves.length > 2) return undefined;
  const toHextets = (s: string) =>
    s === ''
      ? []
      : s.split(':').map((h) => (/^[0-9a-f]{1,4}$/i.test(h) ? Number.parseInt(h, 16) : Number.NaN));
  const head = toHextets(halves[0] ?? '');
  const rest = halves.length === 2 ? toHextets(halves[1] ?? '') : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return undefined;
  const out = [...head, ...new Array<number>(halves.length === 2 ? fill : 0).fill(0), ...rest];
  return out.length === 8 && out.every((n) => Number.isInteger(n) && n >= 0 && n <= 0xffff) ? out : undefined;
}

const inV4 = (a: number[], base: [number, number, number, number], bits: number): boolean => {
  const n = (((a[0] ?? 0) << 24) | ((a[1] ?? 0) << 16) | ((a[2] ?? 0) << 8) | (a[3] ?? 0)) >>> 0;
  const b = ((base[0] << 24) | (base[1] << 16) | (base[2] << 8) | base[3]) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (n & mask) === (b & mask);
};

/** Ranges no Admin-set URL may reach: private, loopback, link-local (cloud metadata), reserved. */
const V4_BLOCKED: Array<[[number, number, number, number], number]> = [
  [[0, 0, 0, 0], 8],
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10],
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24],
  [[192, 0, 2, 0], 24],
  [[192, 88, 99, 0], 24],
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15],
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4],
  [[240, 0, 0, 0], 4],
];

function isPublicV4(a: number[]): boolean {
  return !V4_BLOCKED.some(([base, bits]) => inV4(a, base, bits));
}

function isPublicV6(h: number[]): boolean {
  const [h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0] = h;
  const v4 = (hi: number, lo: number) => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];
  // ::/16 holds the loopback, unspecified and every IPv4-embedding form of the first block:
  // mapped ::ffff:a.b.c.d, translated ::ffff:0:a.b.c.d (SIIT) and the deprecated compatible ::a.b.c.d.
  // Only a mapped or translated public IPv4 address is public; nothing else in it is.
  if (h0 === 0) {
    const zeros = h1 === 0 && h2 === 0 && h3 === 0;
    if (zeros && h4 === 0 && h5 === 0xffff) return isPublicV4(v4(h6, h7));
    if (zeros && h4 === 0xffff && h5 === 0) return isPublicV4(v4(h6, h7));
    return false;
  }
  // ISATAP interface ids (…:0:5efe:a.b.c.d, …:200:5efe:a.b.c.d) tunnel to the embedded IPv4 address.
  if ((h4 === 0 || h4 === 0x200) && h5 === 0x5efe && !isPublicV4(v4(h6, h7))) return false;
  // NAT64 64:ff9b::/96 embeds an IPv4 address; 64:ff9b:1::/48 is local-use NAT64.
  if (h0 === 0x64 && h1 === 0xff9b) {
    if (h2 === 0 && h3 === 0 && h4 === 0 && h5 === 0) return isPublicV4(v4(h6, h7));
    return false;
  }
  // 6to4 2002::/16 embeds an IPv4 address in hextets 1-2.
  if (h0 === 0x2002) return isPublicV4(v4(h1, h2));
  if (h0 === 0x0100 && h1 === 0 && h2 === 0 && h3 === 0) return false; // discard-only
  if (h0 === 0x2001 && h1 === 0) return false; // Teredo
  if (h0 === 0x2001 && h1 === 0x0db8) return false; // documentation
  if ((h0 & 0xfe00) === 0xfc00) return false; // unique local, incl. fd00:ec2::254 (metadata)
  if ((h0 & 0xffc0) === 0xfe80) return false; // link-local
  if ((h0 & 0xffc0) === 0xfec0) return false; // site-local
  if ((h0 & 0xff00) === 0xff00) return false; // multicast
  return true;
}

/** True when `ip` is a literal address on the public internet. */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '');
  if (isIPv4(bare)) {
    const a = parseIPv4(bare);
    return a ? isPublicV4(a) : false;
  }
  const h = parseIPv6(bare);
  return h ? isPublicV6(h) : false;
}

const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80');

/**
 * True when the URL's host (and port) matches one of the patterns: `host`, `host:port`,
 * `*.suffix`, `[v6]:port`. A pattern without a port allows every port of that host.
 */
export function matchesAllowlist(url: URL, patterns: readonly string[]): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port || defaultPort(url.protocol);
  return patterns.some((raw) => {
    const p = raw.trim().toLowerCase();
    if (!p) return false;
    let pHost = p;
    let pPort: string | undefined;
    const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(p);
    if (v6) {
      pHost = v6[1] ?? '';
      pPort = v6[2];
    } else if (/^[^:]+:\d+$/.test(p)) {
      const i = p.lastIndexOf(':');
      pHost = p.slice(0, i);
      pPort = p.slice(i + 1);
    }
    if (pPort !== undefined && pPort !== port) return false;
    if (pHost.startsWith('*.')) return host.endsWith(pHost.slice(1)) && host.length > pHost.length - 1;
    return host === pHost;
  });
}

type LookupFn = typeof dnsLookup;
type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A dns.lookup that refuses hosts resolving to any non-public address. */
function guardedLookup(
  base: LookupFn,
): (hostname: string, options: object, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    base(hostname, { ...(options as object), all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, []);
      const bad = addresses.find((a) => !isPublicAddress(a.address));
      if (bad || addresses.length === 0) {
        const e = (
          bad
            ? new BlockedUrlError(
                hostname,
                'private',
                `${hostname} resolves to ${bad.address}, a private address; it must be public or in PROVIDER_URL_ALLOWLIST`,
                { host: hostname, address: bad.address },
              )
            : new BlockedUrlError(hostname, 'unresolvable', `${hostname} resolves to no address`, {
                host: hostname,
              })
        ) as BlockedUrlError & NodeJS.ErrnoException;
        e.code = 'ESSRFBLOCKED';
        return callback(e, []);
      }
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

export interface GuardOptions {
  allowlist: readonly string[];
  maxRedirects?: number;
  /** For tests: a resolver to use instead of the system's. */
  lookup?: LookupFn;
  /** How long resolving a host may take when a URL is saved. */
  resolveTimeoutMs?: number;
}

/**
 * A 400 on `field` for an address the server refused or could not reach: the detail's own code
 * (`url_blocked`) and `reason` let the web say what happened in the user's language.
 */
export function blockedField(field: string, err: BlockedUrlError): AppError {
  const detail: UrlBlockedDetail = {
    path: field,
    message: err.message,
    code: 'url_blocked',
    reason: err.reason,
    ...err.where,
  };
  return new AppError('VALIDATION_FAILED', `${field}: ${err.message}`, [detail]);
}

/** assertUrlAllowed for a URL an Admin typed into `field`: a refusal is a 400 on that field (`blockedField`). */
export async function assertFieldUrlAllowed(
  field: string,
  raw: string,
  allowlist: readonly string[],
): Promise<void> {
  try {
    await assertUrlAllowed(raw, { allowlist });
  } catch (err) {
    if (err instanceof BlockedUrlError) throw blockedField(field, err);
    throw err;
  }
}

/**
 * Checks a URL: scheme, no credentials, literal private addresses, and — with `resolve` (the
 * default, used when an Admin saves a URL) — what its host resolves to, unless allowlisted.
 * Requests skip the DNS step here: their connection's own lookup is checked (guardedLookup).
 */
export async function assertUrlAllowed(raw: string, opts: GuardOptions, resolve = true): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedUrlError(raw, 'invalid', 'Not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedUrlError(raw, 'scheme', 'Only http and https URLs are allowed');
  }
  if (url.username || url.password) {
    throw new BlockedUrlError(raw, 'credentials', 'URLs with credentials are not allowed');
  }
  if (matchesAllowlist(url, opts.allowlist)) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    if (!isPublicAddress(host)) {
      throw new BlockedUrlError(
        raw,
        'private',
        `${host} is a private address; it must be public or in PROVIDER_URL_ALLOWLIST`,
        { host, address: host },
      );
    }
    return;
  }
  if (!resolve) return;
  const lookup = guardedLookup(opts.lookup ?? dnsLookup);
  await new Promise<void>((done, reject) => {
    // getaddrinfo has no deadline of its own: a name nobody answers for is not worth a longer wait.
    const timer = setTimeout(
      () => reject(new BlockedUrlError(raw, 'unresolvable', `Could not resolve ${host} in time`, { host })),
      opts.resolveTimeoutMs ?? RESOLVE_TIMEOUT_MS,
    );
    lookup(host, {}, (err) => {
      clearTimeout(timer);
      if (!err) return done();
      if (err instanceof BlockedUrlError) return reject(err);
      reject(new BlockedUrlError(raw, 'unresolvable', `Could not resolve ${host}`, { host }));
    });
  });
}

/**
 * Reaches `raw` once, under the SSRF rule, within `timeoutMs`: any HTTP answer proves it is
 * there; otherwise a BlockedUrlError says what happened (unresolvable, refused, timeout, private).
 */
export async function assertReachable(raw: string, opts: GuardOptions, timeoutMs: number): Promise<void> {
  const http = createGuardedHttp(opts);
  try {
    const res = await http.fetch(raw, { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel().catch(() => {});
  } catch (err) {
    if (err instanceof BlockedUrlError) throw err;
    const host = new URL(raw).hostname;
    const reason = addressProblemOf(err) ?? 'refused';
    throw new BlockedUrlError(raw, reason, `Could not reach ${host} (${reason})`, { host });
  } finally {
    await http.close();
  }
}

export type FetchLike = typeof globalThis.fetch;

/** One request as `request` takes it: the body already a string (JSON), as model calls send it. */
export interface HttpRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}
export type RequestFn = (url: string, init: HttpRequest) => Promise<Dispatcher.ResponseData>;

/** `request` without the SSRF rule, for the instance-wide providers the environment sets (trusted). */
export const trustedRequest: RequestFn = async (url, init) =>
  (await loadUndici()).request(url, {
    method: init.method as Dispatcher.HttpMethod,
    headers: init.headers,
    ...(init.body !== undefined ? { body: init.body } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
  });

function plain(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/** What a request becomes after a redirect `status` to `location`, or undefined when it is not one. */
function redirected(
  status: number,
  location: string | null,
  url: string,
  method: string,
  headers: Headers,
): { url: string; method: string; dropBody: boolean } | undefined {
  if (status < 300 || status >= 400 || status === 304 || !location) return undefined;
  const next = new URL(location, url);
  // Credentials never follow a redirect to another origin.
  if (next.origin !== new URL(url).origin) {
    headers.delete('authorization');
    headers.delete('x-api-key');
    headers.delete('x-goog-api-key');
  }
  if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
    headers.delete('content-type');
    headers.delete('content-length');
    return { url: next.href, method: 'GET', dropBody: true };
  }
  return { url: next.href, method, dropBody: false };
}

/**
 * HTTP for model providers that applies the SSRF rule on the first request and on every redirect
 * (followed here by hand, at most `maxRedirects`). Connections to non-allowlisted hosts go
 * through an agent whose DNS lookup refuses private answers, so rebinding cannot slip past.
 * `fetch` is for the AI SDK's providers; `request` (undici's, a Node stream body) for streaming
 * chat completions, at a third of fetch's cost per chunk.
 */
export function createGuardedHttp(opts: GuardOptions): {
  fetch: FetchLike;
  request: RequestFn;
  close: () => Promise<void>;
} {
  const maxRedirects = opts.maxRedirects ?? 5;
  /** The two agents, made on the first request (with undici). */
  let agents: Promise<{ guarded: Agent; open: Agent }> | undefined;
  const agentsMade = () => {
    agents ??= loadUndici().then(({ Agent }) => ({
      guarded: new Agent({ connect: { lookup: guardedLookup(opts.lookup ?? dnsLookup) as never } }),
      open: new Agent(),
    }));
    return agents;
  };
  const dispatcherFor = async (url: string) => {
    await assertUrlAllowed(url, opts, false);
    const { guarded, open } = await agentsMade();
    return matchesAllowlist(new URL(url), opts.allowlist) ? open : guarded;
  };

  /** One hop of a request, as `follow` asks for it. */
  type Hop = { url: string; method: string; withBody: boolean; dispatcher: Agent };
  /** What `follow` needs of a response: whether it redirects, and how to drop its body. */
  type Seen = { status: number; location: string | null; discard: () => unknown };

  /** Sends a request, following redirects by hand under the SSRF rule (the same for fetch and request). */
  const follow = async <R>(
    first: string,
    firstMethod: string,
    headers: Headers,
    send: (hop: Hop) => Promise<R>,
    see: (res: R) => Seen,
  ): Promise<R> => {
    let url = first;
    let method = firstMethod.toUpperCase();
    let withBody = true;
    for (let hop = 0; ; hop++) {
      const res = await send({ url, method, withBody, dispatcher: await dispatcherFor(url) });
      const { status, location, discard } = see(res);
      const next = redirected(status, location, url, method, headers);
      if (!next) return res;
      await discard();
      if (hop >= maxRedirects) throw new BlockedUrlError(url, 'redirects', 'Too many redirects');
      ({ url, method } = next);
      if (next.dropBody) withBody = false;
    }
  };

  const guardedFetch = (input: Parameters<FetchLike>[0], init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    return follow(
      url,
      init?.method ?? (input instanceof Request ? input.method : 'GET'),
      headers,
      async (hop) =>
        (await loadUndici()).fetch(hop.url, {
          method: hop.method,
          headers: headers as never,
          body: (hop.withBody ? (init?.body ?? undefined) : undefined) as never,
          redirect: 'manual',
          signal: init?.signal ?? null,
          dispatcher: hop.dispatcher,
        }) as unknown as Promise<Response>,
      (res) => ({
        status: res.status,
        location: res.headers.get('location'),
        discard: () => res.body?.cancel().catch(() => {}),
      }),
    );
  };

  const guardedRequest: RequestFn = (url, init) => {
    const headers = new Headers(init.headers);
    return follow(
      url,
      init.method,
      headers,
      async (hop) =>
        (await loadUndici()).request(hop.url, {
          method: hop.method as Dispatcher.HttpMethod,
          headers: plain(headers),
          ...(hop.withBody && init.body !== undefined ? { body: init.body } : {}),
          ...(init.signal ? { signal: init.signal } : {}),
          dispatcher: hop.dispatcher,
        }),
      (res) => ({
        status: res.statusCode,
        location: typeof res.headers.location === 'string' ? res.headers.location : null,
        discard: () => res.body.dump(),
      }),
    );
  };

  return {
    fetch: guardedFetch as FetchLike,
    request: guardedRequest,
    close: async () => {
      if (!agents) return;
      const { guarded, open } = await agents;
      await Promise.allSettled([guarded.close(), open.close()]);
    },
  };
}
