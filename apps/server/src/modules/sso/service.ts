import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import { create, list, remove, update } from './providers-admin.ts';
import { clientSettings, loginOptions } from './sign-in-settings.ts';
import { createSsoState, redirectUri } from './state.ts';
import type { SsoStore } from './store.ts';

export type { SsoClientSettings } from './state.ts';

/**
 * Single sign-on providers: configured by SuperAdmins (API, /integration) or by OIDC_* env. It only
 * names the operations (docs/ARCHITECTURE.md#service-style): providers-admin.ts (a SuperAdmin's
 * providers) and sign-in-settings.ts (what the login page and the flow read), over state.ts.
 */
export function ssoService(ctx: AppContext, store?: SsoStore) {
  return withState(createSsoState(ctx, store), {
    redirectUri,
    list,
    create,
    update,
    remove,
    loginOptions,
    clientSettings,
  });
}

export type SsoService = ReturnType<typeof ssoService>;
