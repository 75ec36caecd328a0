// A browser entry imports this first: zod probes `new Function` when each object schema is built,
// and under the web app's CSP (no 'unsafe-eval') every probe logs a violation. Configured here,
// before any module that builds a schema is evaluated, none probes.
//
// zod keeps its configuration in `globalThis.__zod_globalConfig` and adopts an object already there
// (zod/v4/core's `globalConfig`): setting it without importing zod keeps zod's core out of the entry
// every page loads, the login page's included (~3.7 KB gzipped, issue 30). jitless.test.ts checks
// that zod reads it.
const shared = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
shared.__zod_globalConfig ??= {};
shared.__zod_globalConfig.jitless = true;
