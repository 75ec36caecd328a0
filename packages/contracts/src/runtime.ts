import { config } from 'zod/v4/core';

/**
 * Parse without compiling: zod probes `new Function` to build faster parsers, and under the web
 * app's CSP (no 'unsafe-eval') that probe logs a violation on every page. Call once, before any parse.
 */
export function disableSchemaCompilation(): void {
  config({ jitless: true });
}
