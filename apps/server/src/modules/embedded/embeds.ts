import { randomBytes } from 'node:crypto';
import type {
  VirtualAccount,
  VirtualAccountCreateSchema,
  VirtualAccountListQuery,
  VirtualAccountUpdate,
  VirtualAccountWithSecret,
} from '@assistente/contracts';
import type { z } from 'zod';
import type { UserCaller } from '../../lib/caller.ts';
import { deleteVisitorUsers } from '../accounts/index.ts';
import { type AuditMeta, auditedTransaction, changedFields } from '../audit/index.ts';
import { audited, toVirtualAccount } from './dto.ts';
import { virtualAccountNotFound } from './errors.ts';
import { newSecret } from './signing-secrets.ts';
import { adminDomain, changed, checkAgent, managed, type VirtualAccountsState, withStats } from './state.ts';
import { type VirtualAccountPatch, virtualAccountsStore } from './store.ts';
import { visitorEmail, visitorUid } from './visitor-ids.ts';

/** Embeds as their domain's Admins list, create, change and delete them. */

type CreateBody = z.output<typeof VirtualAccountCreateSchema>;

const newId = () => `va${randomBytes(8).toString('hex')}`;

export async function list(
  state: VirtualAccountsState,
  caller: UserCaller,
  query: VirtualAccountListQuery,
): Promise<VirtualAccount[]> {
  const { store } = state;
  const domainId = await adminDomain(state, caller, query.domain);
  const rows = await store.list(domainId);
  const usage = await store.usage(rows.map((r) => r.id));
  return rows.map((r) => toVirtualAccount(r, usage.get(r.id)));
}

export async function get(
  state: VirtualAccountsState,
  caller: UserCaller,
  id: string,
): Promise<VirtualAccount> {
  return withStats(state, await managed(state, caller, id));
}

export async function create(
  state: VirtualAccountsState,
  caller: UserCaller,
  body: CreateBody,
  meta: AuditMeta,
  domain?: string,
): Promise<VirtualAccountWithSecret> {
  const { box } = state;
  const domainId = await adminDomain(state, caller, domain);
  await checkAgent(state, domainId, body.agentId);
  const id = newId();
  const secret = newSecret();
  const row = await auditedTransaction(state.ctx.db, caller, meta, virtualAccountsStore, async (s) => {
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
}

export async function update(
  state: VirtualAccountsState,
  caller: UserCaller,
  id: string,
  body: VirtualAccountUpdate,
  meta: AuditMeta,
): Promise<VirtualAccount> {
  const current = await managed(state, caller, id);
  const patch: VirtualAccountPatch = {};
  if (body.displayName !== undefined) patch.displayName = body.displayName;
  if (body.color !== undefined) patch.color = body.color;
  if (body.agentId !== undefined) {
    // An unchanged santito is not checked again, as santitos' models are not.
    if (body.agentId !== current.agentId) await checkAgent(state, current.domainId, body.agentId);
    patch.agentId = body.agentId;
  }
  if (body.allowedOrigins !== undefined) patch.allowedOrigins = [...new Set(body.allowedOrigins)];
  if (body.welcome !== undefined) patch.welcome = body.welcome;
  if (body.identity !== undefined) patch.identity = body.identity;
  if (body.limits !== undefined) patch.limits = body.limits;
  if (body.allowAttachments !== undefined) patch.allowAttachments = body.allowAttachments;
  if (body.active !== undefined) patch.active = body.active;
  const row = await auditedTransaction(state.ctx.db, caller, meta, virtualAccountsStore, async (s) => {
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
  await changed(state, id);
  return withStats(state, row);
}

export async function remove(
  state: VirtualAccountsState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
): Promise<void> {
  const { ctx } = state;
  const current = await managed(state, caller, id);
  await auditedTransaction(
    ctx.db,
    caller,
    meta,
    (tx) => tx,
    async (tx) => {
      const s = virtualAccountsStore(tx);
      // Its visitors' chats go with it: they exist for this embed alone.
      const visitorIds = await s.visitorIds(id);
      await deleteVisitorUsers(
        tx,
        visitorIds.map((v) => visitorEmail(visitorUid(id, v))),
      );
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
    },
  );
  await changed(state, id);
  // Refresh tokens too: a deleted embed's visitors must not mint tokens for nothing.
  await ctx.identity.revokeSessionsByUidPrefix(visitorUid(id, ''), 'embed_deleted');
}
