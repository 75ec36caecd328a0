import type { RuntimeConfig } from '@assistente/contracts';
import { requireNumber, requireObject, requireString, requireStringArray } from '../guards.ts';

let current: RuntimeConfig | null = null;

/**
 * Checks `/runtime-config.json` against the contract's shape. Done by hand: it is read before
 * the first screen, whose JavaScript budget has no room for the schema library.
 */
export function parseRuntimeConfig(data: unknown): RuntimeConfig {
  const what = 'runtime-config.json';
  const o = requireObject(data, what);
  const identity = requireObject(o.identity, `${what} identity`);
  return {
    appUrl: requireString(o, 'appUrl', what),
    projectId: requireString(o, 'projectId', what),
    chatsManagerUrl: requireString(o, 'chatsManagerUrl', what),
    accountManagerUrl: requireString(o, 'accountManagerUrl', what),
    codeAssistUrl: requireString(o, 'codeAssistUrl', what),
    agentsWsUrl: requireString(o, 'agentsWsUrl', what),
    identity: {
      apiKey: requireString(identity, 'apiKey', `${what} identity`),
      authDomain: requireString(identity, 'authDomain', `${what} identity`),
      projectId: requireString(identity, 'projectId', `${what} identity`),
      baseUrl: requireString(identity, 'baseUrl', `${what} identity`),
    },
    storageBucket: requireString(o, 'storageBucket', what),
    editorDeepLink: requireString(o, 'editorDeepLink', what),
    editorCallbackOrigins: requireStringArray(o, 'editorCallbackOrigins', what),
    uploadMaxBytes: requireNumber(o, 'uploadMaxBytes', what),
    buildId: requireString(o, 'buildId', what),
  };
}

/**
 * Under the Vite dev server the API server's own origin (its PUBLIC_URL) is another origin than
 * the page's; the dev proxy forwards the paths, so service URLs on `devServerOrigin` become
 * same-origin paths.
 */
export function relativeToProxy(config: RuntimeConfig, devServerOrigin: string): RuntimeConfig {
  const strip = (url: string) => (url.startsWith(devServerOrigin) ? url.slice(devServerOrigin.length) : url);
  return {
    ...config,
    chatsManagerUrl: strip(config.chatsManagerUrl),
    accountManagerUrl: strip(config.accountManagerUrl),
    codeAssistUrl: strip(config.codeAssistUrl),
    identity: { ...config.identity, baseUrl: strip(config.identity.baseUrl) },
  };
}

/** Fetches `/runtime-config.json` (one build serves every deployment, docs/ARCHITECTURE.md#configuration). */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const response = await fetchImpl('/runtime-config.json', {
    headers: { accept: 'application/json' },
    cache: 'no-cache',
  });
  if (!response.ok) throw new Error(`Could not load /runtime-config.json (status ${response.status})`);
  const config = parseRuntimeConfig(await response.json());
  current = import.meta.env.DEV
    ? { ...relativeToProxy(config, 'http://localhost:3000'), appUrl: window.location.origin }
    : config;
  return current;
}

/**
 * The address the server is configured for (its PUBLIC_URL) when the page was opened at another
 * one: the browser then refuses every call to it, so the app says where to go instead of
 * blaming the network. Undefined when the page is where it should be.
 */
export function misplacedAppUrl(config: RuntimeConfig | null, pageOrigin: string): string | undefined {
  if (!config) return undefined;
  return new URL(config.appUrl).origin === pageOrigin ? undefined : config.appUrl;
}

export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
}

/** The loaded configuration, or null before it is (components rendered outside the app's boot). */
export function loadedRuntimeConfig(): RuntimeConfig | null {
  return current;
}

export function getRuntimeConfig(): RuntimeConfig {
  if (!current) throw new Error('Runtime configuration is not loaded yet');
  return current;
}
