import type { DomainSettings, DomainSettingsUpdate } from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import type { AuditMeta } from '../audit/index.ts';
import { authorize } from './policy.ts';
import type { SettingsState } from './state.ts';

export async function getDomainSettings(
  state: SettingsState,
  caller: UserCaller,
  hint: string | undefined,
): Promise<DomainSettings> {
  const { account } = state;
  authorize(caller, 'manageDomain', caller.domain.id);
  const domain = await account.settingsDomain(caller, hint);
  return toSettings(domain);
}

const toSettings = (d: { id: string; eulaVersion: string; timeZone: string }): DomainSettings => ({
  domain: d.id,
  eulaVersion: d.eulaVersion,
  timeZone: d.timeZone,
});

/** A new EULA version asks every user of the domain to accept it again; a new zone moves its days. */
export async function updateDomainSettings(
  state: SettingsState,
  caller: UserCaller,
  hint: string | undefined,
  body: DomainSettingsUpdate,
  meta: AuditMeta,
): Promise<DomainSettings> {
  const { account } = state;
  authorize(caller, 'manageDomain', caller.domain.id);
  let domain = await account.settingsDomain(caller, hint);
  if (body.timeZone !== undefined && body.timeZone !== domain.timeZone) {
    domain = await account.setTimeZone(caller, domain, body.timeZone, meta);
  }
  if (body.eulaVersion !== undefined && body.eulaVersion !== domain.eulaVersion) {
    domain = await account.setEulaVersion(caller, domain, body.eulaVersion, meta);
  }
  return toSettings(domain);
}
