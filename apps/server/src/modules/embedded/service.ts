import { randomBytes } from 'node:crypto';
import type {
  VirtualAccount,
  VirtualAccountCreateSchema,
  VirtualAccountListQuery,
  VirtualAccountUpdate,
  VirtualAccountWithSecret,
} from '@assistente/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import { type SecretBox, secretBoxFor } from '../../lib/secrets.ts';
import { existingActingDomain } from '../accounts/index.ts';
import { type AuditMeta, type AuditRecord, auditedTransaction, changedFields } from '../audit/index.ts';
import { virtualAccountNotFound } from './errors.ts';
import { authorize, can } from './policy.ts';
import {
  type UsageCounts,
  type VirtualAccountPatch,
  type VirtualAccountRow,
  type VirtualAccountsStore,
  virtualAccountsStore,
} from './store.ts';
import { visitorEmail, visitorUid } from './visitor-ids.ts';

type CreateBody = z.output<typeof VirtualAccountCreateSchema>;

/**
 * Bus channel: an embed changed or went away (`{ virtualAccountId }`). Every replica drops what it
 * cached of it and re-checks, or closes, its visitors' connections.
 */
export const VIRTUAL_ACCOUNT_CHANGED = 'embedded.virtual_account.changed';

const newId = () => `va${randomBytes(8).toString('hex')}`;
/** 256 bits, hex: easy to paste into any server's HMAC call. */
const newSecret = () => randomBytes(32).toString('hex');
const NO_USAGE: UsageCounts = { visitors: 0, chats: 0, messages: 0 };

function toVirtualAccount(row: VirtualAccountRow, stats: UsageCounts = NO_USAGE): VirtualAccount {
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
const audited = (row: VirtualAccountRow) => ({
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

/**
 * Embeds (virtual accounts, docs/ARCHITECTURE.md#embedded-chat) as their domain's Admins manage them. Premium only (the
 * routes say so); another domain's embed answers 404 to an Admin, as if it did not exist.
 */
export function virtualAccountsService(
  ctx: AppContext,
  store: VirtualAccountsStore = virtualAccountsStore(ctx.db),
  box: SecretBox = secretBoxFor(ctx.config),
) {
  /** The domain the caller acts on: their own, or (SuperAdmin) the one asked for. */
  async function adminDomain(caller: UserCaller, requested?: string): Promise<string> {
    authorize(caller, 'manage', caller.domain.id, 'Only Admins manage embeds');
    return existingActingDomain(ctx.db, caller, requested);
  }

  /** The embed and its domain if the caller manages it; 404 otherwise (another domain's are invisible). */
  async function managed(caller: UserCaller, id: string): Promise<VirtualAccountRow> {
    authorize(caller, 'manage', caller.domain.id, 'Only Admins manage embeds');
    const domainId = await store.domainOf(id);
    if (!domainId || !can(caller, 'manage', domainId)) throw virtualAccountNotFound();
    const row = await store.find(domainId, id);
    if (!row) throw virtualAccountNotFound();
    return row;
  }

  async function checkAgent(domainId: string, agentId: string | null | undefined): Promise<void> {
    if (agentId && !(await store.agentInDomain(domainId, agentId))) {
      throw invalidField('agentId', 'No such santito in this organisation');
    }
  }

  async function withStats(row: VirtualAccountRow): Promise<VirtualAccount> {
    return toVirtualAccount(row, (await store.usage([row.id])).get(row.id));
  }

  /** Runs a change and writes its audit entry in one transaction: both happen, or neither. */
  function inTransaction<T>(
    caller: UserCaller,
    meta: AuditMeta,
    run: (s: VirtualAccountsStore) => Promise<{ result: T; audit: AuditRecord }>,
  ): Promise<T> {
    return auditedTransaction(ctx.db, caller, meta, virtualAccountsStore, run);
  }

  async function changed(virtualAccountId: string): Promise<void> {
    try {
      await ctx.bus.publish(VIRTUAL_ACCOUNT_CHANGED, { virtualAccountId });
    } catch (err) {
      ctx.log.error({ err, virtualAccountId }, 'embedded: could not publish an embed change');
    }
  }

  return {
    async list(caller: UserCaller, query: VirtualAccountListQuery): Promise<VirtualAccount[]> {
      const domainId = await adminDomain(caller, query.domain);
      const rows = await store.list(domainId);
      const usage = await store.usage(rows.map((r) => r.id));
      return rows.map((r) => toVirtualAccount(r, usage.get(r.id)));
    },

    async get(caller: UserCaller, id: string): Promise<VirtualAccount> {
      return withStats(await managed(caller, id));
    },

    async create(
      caller: UserCaller,
      body: CreateBody,
      meta: AuditMeta,
      domain?: string,
    ): Promise<VirtualAccountWithSecret> {
      const domainId = await adminDomain(caller, domain);
      await checkAgent(domainId, body.agentId);
      const id = newId();
      const secret = newSecret();
      const row = await inTransaction(caller, meta, async (s) => {
        const inserted = await s.insert({
          id,
          domainId,
          displayName: body.displayName,
          color: body.color,
          agentId: body.agentId,
          allowedOrigins: [...new Set(body.allowedOrigins)],
          welcome: body.welcome,
          identity: body.identity,
          limits: body.limits,
          allowAttachments: body.allowAttachments,
          secretEnc: box.seal(secret, id),
          active: body.active,
        });
        return {
          result: inserted,
          audit: {
            action: 'virtual_account.create',
            targetType: 'virtual_account',
            targetId: id,
            domainId,
            after: audited(inserted),
          },
        };
      });
      return { ...toVirtualAccount(row), secret };
    },

    async update(
      caller: UserCaller,
      id: string,
      body: VirtualAccountUpdate,
      meta: AuditMeta,
    ): Promise<VirtualAccount> {
      const current = await managed(caller, id);
      const patch: VirtualAccountPatch = {};
      if (body.displayName !== undefined) patch.displayName = body.displayName;
      if (body.color !== undefined) patch.color = body.color;
      if (body.agentId !== undefined) {
        // An unchanged santito is not checked again, as santitos' models are not.
        if (body.agentId !== current.agentId) await checkAgent(current.domainId, body.agentId);
        patch.agentId = body.agentId;
      }
      if (body.allowedOrigins !== undefined) patch.allowedOrigins = [...new Set(body.allowedOrigins)];
      if (body.welcome !== undefined) patch.welcome = body.welcome;
      if (body.identity !== undefined) patch.identity = body.identity;
      if (body.limits !== undefined) patch.limits = body.limits;
      if (body.allowAttachments !== undefined) patch.allowAttachments = body.allowAttachments;
      if (body.active !== undefined) patch.active = body.active;
      const row = await inTransaction(caller, meta, async (s) => {
        const updated = await s.update(current.domainId, id, patch);
        if (!updated) throw virtualAccountNotFound();
        const diff = changedFields(audited(current), audited(updated));
        return {
          result: updated,
          audit: {
            action: 'virtual_account.update',
            targetType: 'virtual_account',
            targetId: id,
            domainId: current.domainId,
            before: { displayName: current.displayName, ...diff.before },
            after: { displayName: updated.displayName, ...diff.after },
          },
        };
      });
      await changed(id);
      return withStats(row);
    },

    async remove(caller: UserCaller, id: string, meta: AuditMeta): Promise<void> {
      const current = await managed(caller, id);
      await inTransaction(caller, meta, async (s) => {
        // Its visitors' chats go with it: they exist for this embed alone.
        const visitorIds = await s.visitorIds(id);
        await s.deleteVisitorUsers(visitorIds.map((v) => visitorEmail(visitorUid(id, v))));
        if (!(await s.remove(current.domainId, id))) throw virtualAccountNotFound();
        return {
          result: null,
          audit: {
            action: 'virtual_account.delete',
            targetType: 'virtual_account',
            targetId: id,
            domainId: current.domainId,
            before: audited(current),
          },
        };
      });
      await changed(id);
      // Refresh tokens too: a deleted embed's visitors must not mint tokens for nothing.
      await ctx.identity.revokeSessionsByUidPrefix(visitorUid(id, ''), 'embed_deleted');
    },

    /** A new signing secret, answered once; signatures made with the old one stop working at once. */
    async rotateSecret(caller: UserCaller, id: string, meta: AuditMeta): Promise<VirtualAccountWithSecret> {
      const current = await managed(caller, id);
      const secret = newSecret();
      const row = await inTransaction(caller, meta, async (s) => {
        const updated = await s.update(current.domainId, id, { secretEnc: box.seal(secret, id) });
        if (!updated) throw virtualAccountNotFound();
        return {
          result: updated,
          audit: {
            action: 'virtual_account.secret.rotate',
            targetType: 'virtual_account',
            targetId: id,
            domainId: current.domainId,
            after: { displayName: updated.displayName, signingKeyRotated: true },
          },
        };
      });
      await changed(id);
      return { ...(await withStats(row)), secret };
    },

    /** The embed's signing secret in clear, for checking a signed visitor. */
    secretOf(row: VirtualAccountRow): string {
      return box.open(row.secretEnc, row.id);
    },
  };
}

export type VirtualAccountsService = ReturnType<typeof virtualAccountsService>;
