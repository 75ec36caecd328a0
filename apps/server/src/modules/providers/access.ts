import { type ModelAccess, type ModelAccessRules, type ModelUser, modelAllowed } from '@assistente/contracts';
import type { Caller, UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import { type AuditMeta, auditedTransaction } from '../audit/index.ts';
import { modelNotAllowed } from './errors.ts';
import { adminDomain, changed, type ProvidersState, settingsOf } from './state.ts';
import { providersStore } from './store.ts';

/*
 * Model access (docs/ARCHITECTURE.md#model-access): who of a domain may use which model. The rule
 * itself is `modelAllowed` (packages/contracts/src/policies.ts); this file applies it to callers and
 * keeps each domain's rules.
 */

/** A domain that set no rules: every model open. */
const OPEN: ModelAccess = { rules: [], default: 'allow' };

/** A model as the rules see it: its `provider:model` id and its provider's kind. */
export interface AccessTarget {
  modelId: string;
  kind?: string;
}

/** Whether the caller may use a model: decided from cached settings, no database read. */
export type ModelGate = (model: AccessTarget) => boolean;

/**
 * Who the rules judge: a person or an API key's person by role and department. A visitor of an
 * embed is not judged: their model is the embed's santito's or the domain's default, an Admin's
 * choice, and a visitor cannot pick another (chats' policy refuses their params).
 */
function modelUserOf(caller: Caller): ModelUser | undefined {
  if (caller.kind === 'visitor') return undefined;
  return { role: caller.role, departmentId: caller.user.departmentId };
}

/** The gate of rules `access` for `caller`. */
export function gateOf(access: ModelAccessRules, caller: Caller): ModelGate {
  const who = modelUserOf(caller);
  if (!who) return () => true;
  return (m) => modelAllowed(access, who, m.modelId, m.kind);
}

/** The gate of the caller's domain (its rules come with the cached provider settings). */
export async function gateFor(s: ProvidersState, caller: Caller): Promise<ModelGate> {
  return gateOf((await settingsOf(s, caller.domain.id)).modelAccess, caller);
}

/** Refuses with MODEL_NOT_ALLOWED a model the gate closes. */
export function assertOpen(gate: ModelGate, model: AccessTarget): void {
  if (!gate(model)) throw modelNotAllowed(model.modelId);
}

/** GET /api/v1/settings/model_access: the domain's rules (none set: every model open). */
export async function getModelAccess(
  s: ProvidersState,
  caller: UserCaller,
  domain?: string,
): Promise<ModelAccess> {
  const domainId = await adminDomain(s, caller, domain);
  return (await s.store.aiSettings(domainId)).modelAccess ?? OPEN;
}

/** Departments a rule names must be the domain's: a typo would silently open the model to nobody. */
async function checkDepartments(s: ProvidersState, caller: UserCaller, domainId: string, body: ModelAccess) {
  const ids = [...new Set(body.rules.flatMap((r) => r.departments ?? []))];
  const { organisation } = s.ctx.services;
  for (const id of ids) {
    if ((await organisation.departmentName(caller, id, domainId)) === undefined) {
      throw invalidField('rules', `No department ${id} in this domain`);
    }
  }
}

/** PUT /api/v1/settings/model_access: replaces the domain's rules, audited; every replica drops its copy. */
export async function putModelAccess(
  s: ProvidersState,
  caller: UserCaller,
  body: ModelAccess,
  meta: AuditMeta,
  domain?: string,
): Promise<ModelAccess> {
  const domainId = await adminDomain(s, caller, domain);
  const models = body.rules.map((r) => r.model);
  const twice = models.find((m, i) => models.indexOf(m) !== i);
  if (twice) throw invalidField('rules', `The model ${twice} has two rules`);
  await checkDepartments(s, caller, domainId, body);
  const before = (await s.store.aiSettings(domainId)).modelAccess ?? OPEN;
  await auditedTransaction(s.ctx.db, caller, meta, providersStore, async (tx) => {
    await tx.setAiSettings(domainId, { modelAccess: body });
    return {
      result: undefined,
      audit: {
        action: 'domain.model_access.update',
        targetType: 'domain',
        targetId: domainId,
        domainId,
        before,
        after: body,
      },
    };
  });
  await changed(s, domainId);
  return body;
}
