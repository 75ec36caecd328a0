import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { defineModule } from '../../lib/module.ts';
import { registerIdentityRoutes } from './routes.ts';

export { toIdentityError } from './routes.ts';

import { type IdentityDeps, IdentityServiceImpl } from './service.ts';
import type { IdentityService } from './types.ts';

export type { IdentityLimits } from './service.ts';
export type * from './types.ts';

/** The built-in identity service (docs/ARCHITECTURE.md#identity): loads or creates the signing key, then serves accounts and sessions. */
export async function createIdentityService(deps: IdentityDeps): Promise<IdentityService> {
  return IdentityServiceImpl.create(deps);
}

/**
 * Mounts /identity/v1|v2/…, /identity/jwks.json, /identity/.well-known/openid-configuration and
 * the Firebase SDK's emulator-mode paths (/identitytoolkit.googleapis.com/…, /securetoken.googleapis.com/v1/token).
 * Register without a prefix.
 */
export async function identityRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const identity = builtIn(ctx);
  // Reset mails leave after their response; let them finish before the database closes.
  app.addHook('onClose', () => identity.drain());
  await registerIdentityRoutes(app, identity, ctx.config);
}

function builtIn(ctx: AppContext): IdentityServiceImpl {
  const identity = ctx.identity;
  if (!(identity instanceof IdentityServiceImpl)) {
    throw new Error('the identity module needs the built-in identity service from createIdentityService()');
  }
  return identity;
}

/**
 * Accounts and sessions (docs/ARCHITECTURE.md#identity). Its service is `ctx.identity`, built by
 * `createContext` before every other, since they all verify tokens with it.
 */
export const identityModule = defineModule({
  name: 'identity',
  hostedBy: 'identity',
  routes: [{ plugin: identityRoutes }],
  jobs: [{ name: 'identity.purge', everyMs: 60 * 60_000, run: (ctx) => builtIn(ctx).purgeLeftovers() }],
});
