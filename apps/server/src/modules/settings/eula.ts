import type { EulaAccept, EulaStatus } from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { eulaChanged } from './errors.ts';
import type { SettingsState } from './state.ts';

export async function getEula(state: SettingsState, caller: UserCaller): Promise<EulaStatus> {
  const { account } = state;
  const [row, version] = await Promise.all([account.user(caller), account.domainEulaVersion(caller)]);
  return { eula: row.eula, currentVersion: version ?? row.eula.version };
}

/** Accepts the version the dialog showed; a version bumped meanwhile must be read first (409). */
export async function acceptEula(
  state: SettingsState,
  caller: UserCaller,
  body: EulaAccept,
): Promise<EulaStatus> {
  const { account } = state;
  const [row, version] = await Promise.all([account.user(caller), account.domainEulaVersion(caller)]);
  const currentVersion = version ?? row.eula.version;
  if (body.version !== currentVersion) {
    throw eulaChanged(currentVersion);
  }
  const updated = await account.recordEula(caller, {
    ...row.eula,
    accept: true,
    timestamp: new Date().toISOString(),
    version: currentVersion,
    pendingRevision: false,
  });
  return { eula: updated.eula, currentVersion };
}
