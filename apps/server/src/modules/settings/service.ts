import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import type { OwnAccountService } from '../accounts/index.ts';
import { getDomainSettings, updateDomainSettings } from './domain-settings.ts';
import { acceptEula, getEula } from './eula.ts';
import { getProfile, updateProfile } from './profile.ts';
import { listSessions, revokeAllSessions, revokeSession } from './sessions.ts';
import { settingsState } from './state.ts';

/**
 * The caller's own settings (everyone) and their domain's settings (Admin+),
 * docs/ARCHITECTURE.md#organisations-domains-departments-premium. Each operation lives in the
 * file of its concern (docs/ARCHITECTURE.md#service-style).
 */
export function settingsService(ctx: AppContext, account?: OwnAccountService) {
  return withState(settingsState(ctx, account), {
    getProfile,
    updateProfile,
    listSessions,
    revokeSession,
    revokeAllSessions,
    getEula,
    acceptEula,
    getDomainSettings,
    updateDomainSettings,
  });
}

export type SettingsService = ReturnType<typeof settingsService>;
