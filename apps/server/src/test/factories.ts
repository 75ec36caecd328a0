import { randomBytes, randomUUID } from 'node:crypto';
import type { Role } from '@assistente/contracts';
import type { AppContext } from '../context.ts';
import { chats, departments, domains, messages, santitos, users } from '../db/schema/index.ts';
import type { DomainRow, UserRow } from '../lib/caller.ts';
import { eulaRecord, newDepartmentId } from '../modules/accounts/provision.ts';

export type DepartmentRow = typeof departments.$inferSelect;

const uniq = () => randomBytes(4).toString('hex');

export interface TestDomain {
  domain: DomainRow;
  department: DepartmentRow;
}

/** A domain (unique DNS name unless given) with one department. */
export async function makeDomain(
  ctx: AppContext,
  opts: { id?: string; premium?: boolean; active?: boolean; department?: string } = {},
): Promise<TestDomain> {
  const id = opts.id ?? `d${uniq()}.example.com`;
  const [domain] = await ctx.db
    .insert(domains)
    .values({
      id,
      displayName: `Domain ${id}`,
      premium: opts.premium ?? false,
      active: opts.active ?? true,
      creator: { name: 'Test', email: 'test@example.com' },
    })
    .returning();
  const department = await makeDepartment(ctx, id, opts.department ?? 'Geral');
  return { domain: domain!, department };
}

export async function makeDepartment(
  ctx: AppContext,
  domainId: string,
  displayName: string,
  opts: { active?: boolean } = {},
): Promise<DepartmentRow> {
  const [row] = await ctx.db
    .insert(departments)
    .values({ id: newDepartmentId(), domainId, displayName, active: opts.active ?? true })
    .returning();
  return row!;
}

export interface TestUser {
  user: UserRow;
  uid: string;
  password: string;
  idToken: string;
  refreshToken: string;
  sessionId: string;
  /** `{ authorization: 'Bearer …' }` for app.inject(). */
  headers: { authorization: string };
}

/**
 * An identity account, its stored user and a signed-in web session. Without `domain`, a new
 * domain is made for the user.
 */
export async function makeUser(
  ctx: AppContext,
  opts: {
    role?: Role;
    domain?: TestDomain;
    email?: string;
    displayName?: string;
    active?: boolean;
    eulaAccepted?: boolean;
    /** The saved interface language (users.locale). */
    locale?: 'pt-BR' | 'en' | 'es';
    /** False: an invited user who has not set a password yet. */
    withPassword?: boolean;
    department?: DepartmentRow;
  } = {},
): Promise<TestUser> {
  const where = opts.domain ?? (await makeDomain(ctx));
  const email = (opts.email ?? `u${uniq()}@${where.domain.id}`).toLowerCase();
  const password = `Pw-${randomBytes(12).toString('base64url')}9a`;
  const displayName = opts.displayName ?? `User ${email}`;
  const account = await ctx.identity.createAccount({
    email,
    displayName,
    emailVerified: true,
    ...(opts.withPassword === false ? {} : { password }),
  });
  const [user] = await ctx.db
    .insert(users)
    .values({
      id: email,
      email,
      displayName,
      domainId: where.domain.id,
      departmentId: (opts.department ?? where.department).id,
      role: opts.role ?? 'Viewer',
      active: opts.active ?? true,
      locale: opts.locale ?? null,
      creator: { name: 'Test', email: 'test@example.com' },
      eula: eulaRecord(opts.eulaAccepted ?? true),
    })
    .returning();
  const pair = await ctx.identity.issueSession(account.uid, { kind: 'web', name: 'test' });
  return {
    user: user!,
    uid: account.uid,
    password,
    idToken: pair.idToken,
    refreshToken: pair.refreshToken,
    sessionId: pair.sessionId,
    headers: { authorization: `Bearer ${pair.idToken}` },
  };
}

let factoryClock = Date.now();
/** Strictly increasing timestamps for factory rows, so list orders are deterministic. */
const nextTime = () => new Date(++factoryClock);

/** A chat of `owner` (straight into the database), optionally with messages user → assistant → … */
export async function makeChat(
  ctx: AppContext,
  owner: TestUser,
  opts: {
    title?: string;
    pinned?: boolean;
    agentId?: string | null;
    messages?: string[];
    updatedAt?: Date;
  } = {},
): Promise<{ chat: typeof chats.$inferSelect; messages: Array<typeof messages.$inferSelect> }> {
  const created = nextTime();
  const [chat] = await ctx.db
    .insert(chats)
    .values({
      id: randomUUID(),
      userId: owner.user.id,
      domainId: owner.user.domainId,
      agentId: opts.agentId ?? null,
      title: opts.title ?? '',
      pinned: opts.pinned ?? false,
      createdAt: created,
      updatedAt: opts.updatedAt ?? created,
    })
    .returning();
  const rows: Array<typeof messages.$inferSelect> = [];
  let parentId: string | null = null;
  for (const [i, content] of (opts.messages ?? []).entries()) {
    const at = nextTime();
    const [row]: Array<typeof messages.$inferSelect> = await ctx.db
      .insert(messages)
      .values({
        id: randomUUID(),
        chatId: chat!.id,
        parentId,
        role: i % 2 === 0 ? 'user' : 'assistant',
        content,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    rows.push(row!);
    parentId = row!.id;
  }
  return { chat: chat!, messages: rows };
}

/** A santito of `author`'s domain (straight into the database). */
export async function makeSantito(
  ctx: AppContext,
  author: TestUser,
  opts: { name?: string; visibility?: 'domain' | 'department'; departmentId?: string | null } = {},
): Promise<typeof santitos.$inferSelect> {
  const now = nextTime();
  const [row] = await ctx.db
    .insert(santitos)
    .values({
      id: randomUUID(),
      domainId: author.user.domainId,
      authorId: author.user.id,
      name: opts.name ?? `Santito ${uniq()}`,
      visibility: opts.visibility ?? 'domain',
      departmentId: opts.departmentId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}
