import type { Department, Domain, User } from '@assistente/contracts';
import type { Config } from '../../config.ts';
import type { departments } from '../../db/schema/index.ts';
import type { DomainRow, UserRow } from '../../lib/caller.ts';
import { isPremiumDomain } from './caller-state.ts';

export type DepartmentRow = typeof departments.$inferSelect;

/**
 * A stored user as the contract's `UserSchema`. `showHold`: the reader administers the person, who
 * is told nothing of a legal hold on them.
 */
export function toUser(row: UserRow & { invitePending?: boolean }, opts: { showHold?: boolean } = {}): User {
  return {
    ...(row.invitePending ? { invitePending: true } : {}),
    ...(opts.showHold && row.legalHold ? { legalHold: true } : {}),
    _id: row.id,
    active: row.active,
    displayName: row.displayName,
    email: row.email,
    domain: row.domainId,
    department: row.departmentId,
    role: row.role,
    type: row.type,
    creator: { name: row.creator.name, email: row.creator.email },
    eula: {
      accept: row.eula.accept,
      timestamp: row.eula.timestamp,
      version: row.eula.version,
      pendingRevision: row.eula.pendingRevision,
      pendingTimestamp: row.eula.pendingTimestamp,
      isPrivacyPolicy: row.eula.isPrivacyPolicy,
    },
  };
}

/** A stored domain as `DomainSchema`; `premium` is the effective value (flag or allow-list). */
export function toDomain(row: DomainRow, config: Pick<Config, 'PREMIUM_DOMAINS'>): Domain {
  return {
    _id: row.id,
    domain: row.id,
    active: row.active,
    displayName: row.displayName,
    cnpj: row.cnpj,
    premium: isPremiumDomain(config, row),
    isTrusted: row.isTrusted,
    creator: { name: row.creator.name, email: row.creator.email },
  };
}

export function toDepartment(row: DepartmentRow): Department {
  return { _id: row.id, displayName: row.displayName, domain: row.domainId, active: row.active };
}
