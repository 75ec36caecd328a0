import { createsSantitos, editsSantito, seesAllSantitos } from '@assistente/contracts';
import { actor, definePolicy } from '../../lib/policy.ts';
import type { SantitoRow } from './dto.ts';

/** Who may do what to santitos (rules in packages/contracts/src/policies.ts). */
export const santitosPolicy = definePolicy({
  create: (caller, _: null) => createsSantitos(actor(caller)),
  /** Authors and Admins (or above) of the santito's own domain. */
  edit: (caller, row: Pick<SantitoRow, 'authorId' | 'domainId'>) =>
    row.domainId === caller.domain.id && editsSantito(actor(caller), row),
  /** Every santito of the caller's domain, whatever its visibility. */
  seeAll: (caller, _: null) => seesAllSantitos(actor(caller)),
});

export const { can, authorize } = santitosPolicy;
