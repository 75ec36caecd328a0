import type { KnowledgeSourceChoice } from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { authorize } from './policy.ts';
import type { KnowledgeState } from './state.ts';

/** The names of those of `ids` that are sources of the domain, by id (santitos check theirs). */
export async function sourceNames(
  s: KnowledgeState,
  domainId: string,
  ids: string[],
): Promise<Map<string, string>> {
  return new Map((await s.store.existing(domainId, ids)).map((r) => [r.id, r.displayName]));
}

/** The caller's domain's sources, for the santito editor (Editors and above). */
export async function choices(s: KnowledgeState, caller: UserCaller): Promise<KnowledgeSourceChoice[]> {
  authorize(caller, 'attach', null, 'Only Editors and Admins attach knowledge to santitos');
  return (await s.store.list(caller.domain.id)).map((r) => ({
    sourceId: r.id,
    kind: r.kind,
    displayName: r.displayName,
    documents: r.documents,
  }));
}
