import {
  type CodeTokenRequest,
  CodeTokenResponseSchema,
  RefreshTokenResponseSchema,
  RevokeTokenResponseSchema,
  type RuntimeConfig,
  RuntimeConfigSchema,
} from '@assistente/contracts';
import type { z } from 'zod';

const TOKEN_PATH = '/api/v1/user_management/token';

/** A failure the server answered (4xx/5xx), as opposed to not reaching it. */
export class ServerError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Reads the API error shape (`{error:{code,message}}`) and the identity service's (`{error:{message}}`). */
function errorOf(status: number, data: unknown): ServerError {
  const error = typeof data === 'object' && data !== null && 'error' in data ? data.error : undefined;
  const o = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const code = typeof o.code === 'string' ? o.code : typeof o.message === 'string' ? o.message : 'HTTP_ERROR';
  const message = typeof o.message === 'string' ? o.message : `HTTP ${status}`;
  return new ServerError(status, code, message);
}

async function call<T>(url: string, init: RequestInit, schema: z.ZodType<T>): Promise<T> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) throw errorOf(response.status, data);
  return schema.parse(data);
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The server's public configuration: where its identity service, code assist and websocket are. */
export function loadRuntimeConfig(serverUrl: string): Promise<RuntimeConfig> {
  return call(
    `${trimSlash(serverUrl)}/runtime-config.json`,
    { headers: { accept: 'application/json' } },
    RuntimeConfigSchema,
  );
}

/** The login page the code was issued for: the exchange must name the same one. */
export const loginPageUri = (serverUrl: string) => `${trimSlash(serverUrl)}/auth/login`;

/** Trades the handoff's code and the PKCE verifier for an editor session. */
export function exchangeCode(config: RuntimeConfig, body: CodeTokenRequest) {
  return call(
    `${trimSlash(config.codeAssistUrl)}${TOKEN_PATH}`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    CodeTokenResponseSchema,
  );
}

const identityUrl = (config: RuntimeConfig, path: string) =>
  `${trimSlash(config.identity.baseUrl)}${path}?key=${encodeURIComponent(config.identity.apiKey)}`;

/** securetoken's refresh grant, as the web app renews its tokens; the refresh token rotates. */
export function refreshTokens(config: RuntimeConfig, refreshToken: string) {
  return call(
    identityUrl(config, '/v1/token'),
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
    },
    RefreshTokenResponseSchema,
  );
}

/** Ends the session the refresh token belongs to (it then disappears from the web app's Settings). */
export async function revokeSession(config: RuntimeConfig, refreshToken: string): Promise<void> {
  await call(
    identityUrl(config, '/v2/accounts:revokeToken'),
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: refreshToken }),
    },
    RevokeTokenResponseSchema,
  );
}

/** A refresh the server refused for good (revoked, expired, account disabled): sign out, do not retry. */
export function isFinalRefreshError(error: unknown): boolean {
  return error instanceof ServerError && error.status >= 400 && error.status < 500;
}
