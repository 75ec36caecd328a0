import { readdirSync } from 'node:fs';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import {
  auditEntries,
  departments,
  domains,
  identityAccounts,
  identitySessions,
  oobCodes,
  users,
} from '../db/schema/index.ts';

/**
 * Everything an organisation-management call could change: users, domains, departments, the audit
 * log, identity accounts, sessions and set-password codes, and the mails in the outbox. Two equal
 * snapshots mean a call changed nothing.
 */
export async function snapshotOrganisation(ctx: AppContext) {
  const db = ctx.db;
  const outbox = path.join(ctx.config.dataDir, 'outbox');
  let mails: string[] = [];
  try {
    mails = readdirSync(outbox).sort();
  } catch {
    // no mail written yet
  }
  const [u, d, dep, audit, accounts, sessions, codes] = await Promise.all([
    db.select().from(users).orderBy(asc(users.id)),
    db.select().from(domains).orderBy(asc(domains.id)),
    db.select().from(departments).orderBy(asc(departments.id)),
    db.select().from(auditEntries).orderBy(asc(auditEntries.id)),
    db.select().from(identityAccounts).orderBy(asc(identityAccounts.uid)),
    db.select().from(identitySessions).orderBy(asc(identitySessions.id)),
    db.select().from(oobCodes).orderBy(asc(oobCodes.codeHash)),
  ]);
  return { users: u, domains: d, departments: dep, audit, accounts, sessions, codes, mails };
}
