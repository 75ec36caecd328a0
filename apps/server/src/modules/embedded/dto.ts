import type { VirtualAccount } from '@assistente/contracts';
import type { UsageCounts, VirtualAccountRow } from './store.ts';

const NO_USAGE: UsageCounts = { visitors: 0, chats: 0, messages: 0 };

export function toVirtualAccount(row: VirtualAccountRow, stats: UsageCounts = NO_USAGE): VirtualAccount {
  return {
    virtualAccountId: row.id,
    domain: row.domainId,
    displayName: row.displayName,
    color: row.color,
    agentId: row.agentId,
    allowedOrigins: [...row.allowedOrigins],
    welcome: row.welcome,
    identity: row.identity,
    limits: { ...row.limits },
    allowAttachments: row.allowAttachments,
    active: row.active,
    stats: { ...stats },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of an embed: never the secret. */
export const audited = (row: VirtualAccountRow) => ({
  displayName: row.displayName,
  color: row.color,
  agentId: row.agentId,
  allowedOrigins: row.allowedOrigins,
  welcome: row.welcome,
  identity: row.identity,
  limits: row.limits,
  allowAttachments: row.allowAttachments,
  active: row.active,
});
