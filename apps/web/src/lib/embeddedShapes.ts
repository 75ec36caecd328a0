import type { EmbeddedConfig, EmbeddedSession } from '@assistente/contracts';
import { isObject, type JsonObject } from './guards.ts';

// The embedded chat's session as the host page hands it over and as the frame's storage keeps it,
// checked by hand against the contracts' types: the embedded page's JavaScript budget has no room
// for the schema library (docs/ARCHITECTURE.md#embedded-chat). Only shapes: what the server
// made passes, anything else (another page's junk, an older build's record) is refused whole.

const isString = (value: unknown): value is string => typeof value === 'string';

function named(value: unknown): { _id: string; displayName: string } | null {
  return isObject(value) && isString(value._id) && isString(value.displayName)
    ? { _id: value._id, displayName: value.displayName }
    : null;
}

function agentOf(value: JsonObject): EmbeddedConfig['agent'] | undefined {
  const { _id, name, avatar, starters } = value;
  if (!isString(_id) || !isString(name) || !(avatar === null || isString(avatar))) return undefined;
  if (!Array.isArray(starters) || !starters.every(isString)) return undefined;
  return { _id, name, avatar, starters };
}

/** What the embedded page shows before the first message, or null when `data` is not one. */
export function embeddedConfig(data: unknown): EmbeddedConfig | null {
  if (!isObject(data)) return null;
  const { virtualAccountId, displayName, color, welcome, allowAttachments, agent } = data;
  if (!isString(virtualAccountId) || !isString(displayName) || !isString(color) || !isString(welcome))
    return null;
  if (typeof allowAttachments !== 'boolean') return null;
  const checkedAgent = agent === null ? null : isObject(agent) ? agentOf(agent) : undefined;
  if (checkedAgent === undefined) return null;
  return { virtualAccountId, displayName, color, welcome, allowAttachments, agent: checkedAgent };
}

/** A visitor session as POST /api/v1/embedded/{id}/session answers it, or null. */
export function embeddedSession(data: unknown): EmbeddedSession | null {
  if (!isObject(data)) return null;
  const { idToken, refreshToken, expiresIn } = data;
  if (!isString(idToken) || !isString(refreshToken) || !isString(expiresIn)) return null;
  const user = named(data.user);
  const domain = named(data.domain);
  const virtualAccount = embeddedConfig(data.virtualAccount);
  if (!user || !domain || !virtualAccount) return null;
  return { idToken, refreshToken, expiresIn, user, domain, virtualAccount };
}
