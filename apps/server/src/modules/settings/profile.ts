import { Locales, type Profile, type ProfileUpdate } from '@assistente/contracts';
import type { UserCaller, UserRow } from '../../lib/caller.ts';
import type { SettingsState } from './state.ts';

function toProfile(row: UserRow): Profile {
  return {
    _id: row.id,
    email: row.email,
    displayName: row.displayName,
    locale: Locales.find((l) => l === row.locale) ?? null,
    role: row.role,
    domain: row.domainId,
    department: row.departmentId,
  };
}

export async function getProfile(state: SettingsState, caller: UserCaller): Promise<Profile> {
  const { account } = state;
  return toProfile(await account.user(caller));
}

export async function updateProfile(
  state: SettingsState,
  caller: UserCaller,
  body: ProfileUpdate,
): Promise<Profile> {
  const { account } = state;
  const row = await account.updateProfile(caller, {
    ...(body.displayName === undefined ? {} : { displayName: body.displayName }),
    ...(body.locale === undefined ? {} : { locale: body.locale }),
  });
  return toProfile(row);
}
