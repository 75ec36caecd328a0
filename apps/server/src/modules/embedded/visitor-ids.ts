import { hash } from 'node:crypto';

/** The identity uid of a visitor: its token's `sub`. */
export const visitorUid = (virtualAccountId: string, visitorId: string) =>
  `va:${virtualAccountId}:${visitorId}`;

/**
 * `va:{virtualAccountId}:{visitorId}` back into its parts. Embed ids hold no colon; visitor ids
 * neither (VisitorIdSchema), so the split is unambiguous.
 */
export function parseVisitorUid(uid: string): { virtualAccountId: string; visitorId: string } | undefined {
  const m = /^va:([^:]+):([^:]+)$/.exec(uid);
  return m ? { virtualAccountId: m[1]!, visitorId: m[2]! } : undefined;
}

/**
 * The visitor's stored email (and so their user id): a name under `.invalid`, which no mail can
 * ever reach, hashed so case-differing visitor ids of a site never collide in the case-folded index.
 */
export const visitorEmail = (uid: string) => `v-${hash('sha256', uid, 'hex').slice(0, 40)}@visitors.invalid`;
