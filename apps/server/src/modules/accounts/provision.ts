import { randomBytes, randomUUID } from 'node:crypto';
import { DomainNameSchema, type Eula, type Role } from '@assistente/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { type Creator, departments, domains, users } from '../../db/schema/index.ts';
import type { DomainRow, UserRow } from '../../lib/caller.ts';
import type { DepartmentRow } from './dto.ts';
import {
  departmentNotCreated,
  domainNotCreated,
  invalidDomainName,
  invalidEmailAddress,
  nameTooLong,
  userEmailExists,
} from './errors.ts';

/** The first department of a new domain. */
export const DEFAULT_DEPARTMENT = 'Geral';
/** Who created records made by the server itself (first run, admin CLI). */
const SYSTEM_CREATOR: Creator = { name: 'System', email: '' };

export const newDepartmentId = () => randomUUID();

/** A random password for generated accounts: 144 bits, mixed case, digits and symbols. */
export function randomPassword(): string {
  return `${randomBytes(18).toString('base64url')}-9aZ`;
}

export function eulaRecord(accepted: boolean, now = new Date()): Eula {
  return accepted
    ? {
        accept: true,
        timestamp: now.toISOString(),
        version: 'v1',
        pendingRevision: false,
        pendingTimestamp: null,
        isPrivacyPolicy: true,
      }
    : {
        accept: false,
        timestamp: null,
        version: 'v1',
        pendingRevision: true,
        pendingTimestamp: now.toISOString(),
        isPrivacyPolicy: true,
      };
}

/** Lowercased email, or an error naming what is wrong. Accepts dotless hosts such as `localhost`. */
export function parseEmail(raw: string): { email: string; domain: string } {
  const email = raw.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = DomainNameSchema.safeParse(email.slice(at + 1));
  if (at < 1 || /\s/.test(local) || !domain.success || email.length > 254) {
    throw invalidEmailAddress(raw);
  }
  return { email, domain: domain.data };
}

export interface ProvisionInput {
  email: string;
  /** Set on a new identity account, or reset on an existing one. None: the account has no password. */
  password?: string;
  displayName?: string;
  role: Role;
  /** Defaults to the email's domain; created when missing. */
  domain?: string;
  /** A department id or name in the domain; found or created. Default: the domain's first, else "Geral". */
  department?: string;
  /** Mark the domain premium (created or existing). */
  premium?: boolean;
  eulaAccepted: boolean;
  creator?: Creator;
}

export interface ProvisionResult {
  uid: string;
  user: UserRow;
  domain: DomainRow;
  department: DepartmentRow;
  createdAccount: boolean;
  createdDomain: boolean;
  createdDepartment: boolean;
}

/**
 * Creates a user with everything it needs: identity account, domain, department, user row.
 * Used by the first-run bootstrap and the admin CLI (not by the API: it bypasses caller rules).
 * Refuses (CONFLICT) when the user already exists.
 */
export async function provisionUser(ctx: AppContext, input: ProvisionInput): Promise<ProvisionResult> {
  const { email, domain: emailDomain } = parseEmail(input.email);
  const wantedDomain = input.domain ?? emailDomain;
  const domainParsed = DomainNameSchema.safeParse(wantedDomain);
  if (!domainParsed.success) throw invalidDomainName(wantedDomain);
  const domainId = domainParsed.data;
  const displayName = input.displayName?.trim() || email.slice(0, email.lastIndexOf('@'));
  // The API's update schema caps names at 120: a longer one could never be saved back.
  if (displayName.length > 120) throw nameTooLong();
  const creator = input.creator ?? SYSTEM_CREATOR;
  const db = ctx.db;

  const [existingUser] = await db.select({ id: users.id }).from(users).where(eq(users.id, email)).limit(1);
  if (existingUser) throw userEmailExists(email);

  // Identity first: a password the policy refuses stops everything before any row is written.
  let account = await ctx.identity.findAccountByEmail(email);
  let createdAccount = false;
  if (!account) {
    account = await ctx.identity.createAccount({
      email,
      displayName,
      emailVerified: true,
      ...(input.password === undefined ? {} : { password: input.password }),
    });
    createdAccount = true;
  } else {
    if (input.password !== undefined) await ctx.identity.setPassword(account.uid, input.password);
    if (account.disabled) await ctx.identity.setDisabled(account.uid, false);
  }

  const insertedDomain = await db
    .insert(domains)
    .values({ id: domainId, displayName: domainId, premium: input.premium ?? false, creator })
    .onConflictDoNothing()
    .returning();
  let domain = insertedDomain[0];
  if (!domain) {
    [domain] = await db.select().from(domains).where(eq(domains.id, domainId)).limit(1);
    if (domain && input.premium && !domain.premium) {
      [domain] = await db.update(domains).set({ premium: true }).where(eq(domains.id, domainId)).returning();
    }
  }
  if (!domain) throw domainNotCreated(domainId);

  let department: DepartmentRow | undefined;
  const wanted = input.department?.trim();
  if (wanted) {
    [department] = await db
      .select()
      .from(departments)
      .where(
        and(
          eq(departments.domainId, domainId),
          sql`(${departments.id} = ${wanted} or lower(${departments.displayName}) = lower(${wanted}))`,
        ),
      )
      .orderBy(asc(departments.createdAt))
      .limit(1);
  } else {
    [department] = await db
      .select()
      .from(departments)
      .where(eq(departments.domainId, domainId))
      .orderBy(asc(departments.createdAt), asc(departments.id))
      .limit(1);
  }
  let createdDepartment = false;
  if (!department) {
    [department] = await db
      .insert(departments)
      .values({ id: newDepartmentId(), domainId, displayName: wanted || DEFAULT_DEPARTMENT })
      .returning();
    createdDepartment = true;
  }
  if (!department) throw departmentNotCreated();

  const [user] = await db
    .insert(users)
    .values({
      id: email,
      email,
      displayName,
      domainId,
      departmentId: department.id,
      role: input.role,
      creator,
      eula: eulaRecord(input.eulaAccepted),
    })
    .onConflictDoNothing()
    .returning();
  if (!user) throw userEmailExists(email);
  await ctx.services.callerStates.invalidate({ uid: account.uid, email });

  return {
    uid: account.uid,
    user,
    domain,
    department,
    createdAccount,
    createdDomain: insertedDomain.length > 0,
    createdDepartment,
  };
}
