import { networkInterfaces, hostname as osHostname } from 'node:os';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

type OriginConfig = Pick<Config, 'PUBLIC_URL' | 'publicUrl'>;

/** The origin a request reached the server at, from its Host header (X-Forwarded-* behind TRUST_PROXY). */
function requestOrigin(request: Pick<FastifyRequest, 'protocol' | 'host'>): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * The address the web app is served at for this request: PUBLIC_URL when the operator set it,
 * else the address the request came in on — so `npm start` works at localhost, 127.0.0.1 or a
 * LAN address alike. Only for answers that go back to the same browser (runtime config, same-origin
 * checks); links sent elsewhere use {@link linkBase}.
 */
export function appOrigin(config: OriginConfig, request: Pick<FastifyRequest, 'protocol' | 'host'>): string {
  return config.PUBLIC_URL ? config.publicUrl : requestOrigin(request);
}

/** Whether a browser's Origin header names the app itself (same origin as the page that served it). */
export function isAppOrigin(
  config: OriginConfig,
  request: Pick<FastifyRequest, 'protocol' | 'host'>,
  origin: string,
): boolean {
  return origin === new URL(appOrigin(config, request)).origin;
}

let ownHosts: Set<string> | undefined;

/** This machine's own names and addresses: what a person may type to reach a server started here. */
function machineHosts(): Set<string> {
  if (!ownHosts) {
    ownHosts = new Set(['localhost', '127.0.0.1', '[::1]', osHostname().toLowerCase()]);
    for (const list of Object.values(networkInterfaces())) {
      for (const a of list ?? []) ownHosts.add(a.family === 'IPv6' ? `[${a.address}]` : a.address);
    }
  }
  return ownHosts;
}

/**
 * Where links in mails point. A Host header is the sender's to choose, so without PUBLIC_URL a
 * request's address is used only when it names this machine (localhost, its IPs, its hostname):
 * otherwise anyone could have a reset mail point at a site of theirs (host-header poisoning).
 */
export function linkBase(config: OriginConfig, request?: Pick<FastifyRequest, 'protocol' | 'host'>): string {
  if (config.PUBLIC_URL || !request) return config.publicUrl;
  const host = new URL(requestOrigin(request)).hostname.toLowerCase();
  return machineHosts().has(host) ? requestOrigin(request) : config.publicUrl;
}
