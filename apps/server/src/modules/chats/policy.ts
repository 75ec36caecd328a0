import {
  type ChatCreate,
  type ChatUpdate,
  managesSharing,
  revokesShare,
  type ShareAudience,
} from '@assistente/contracts';
import type { CallerOf, UserCaller } from '../../lib/caller.ts';
import { forbidden } from '../../lib/errors.ts';
import { actor, definePolicy } from '../../lib/policy.ts';

/**
 * Who owns chats (docs/ARCHITECTURE.md#callers): a signed-in person, or a visitor of an embed.
 * API keys have no chats.
 */
export type ChatCaller = CallerOf<'user' | 'visitor'>;

/**
 * The user row whose chats the caller reads and writes: a person's own; a visitor's stored row
 * (type `visitor`), so a visitor reaches their own chats only, and anything else answers 404.
 */
export function chatOwnerId(caller: ChatCaller): string {
  switch (caller.kind) {
    case 'user':
      return caller.user.id;
    case 'visitor':
      return caller.user.id;
  }
}

/**
 * The santito a new chat talks to: the one asked for by a person; a visitor always talks to their
 * embed's santito (or the domain's default), whatever the body names.
 */
export function newChatAgent(caller: ChatCaller, asked: ChatCreate['agentId']): string | null {
  return caller.kind === 'visitor' ? caller.virtualAccount.agentId : (asked ?? null);
}

/** Model and parameters are the embed's choice, not its visitors': a visitor may rename and pin only. */
export function authorizeUpdate(caller: ChatCaller, body: ChatUpdate): void {
  if (caller.kind === 'visitor' && body.params !== undefined) {
    throw forbidden('Visitors cannot change a chat’s parameters');
  }
}

/** Whether the caller may attach files: a person always, a visitor when their embed allows it. */
export function mayAttach(caller: ChatCaller): boolean {
  return caller.kind === 'user' || caller.virtualAccount.allowAttachments;
}

/** As `mayAttach`, refusing with 403 FORBIDDEN. */
export function authorizeAttach(caller: ChatCaller): void {
  if (!mayAttach(caller)) throw forbidden('This chat does not take attachments');
}

/** Who may do what to share links (rules in packages/contracts/src/policies.ts). */
export const sharesPolicy = definePolicy({
  /** Whether a domain allows public links. */
  manageSettings: (caller, domainId: string) => managesSharing(actor(caller), domainId),
  /** Removing a link: its owner, or an Admin of its domain. */
  revoke: (caller, share: { userId: string; domain: string }) => revokesShare(actor(caller), share),
});

/** What deciding whether someone may read a link needs to know of it. */
export interface ShareAudienceOf {
  userId: string;
  domainId: string;
  departmentId: string;
  audience: ShareAudience;
}

/**
 * Whether `reader` (null: nobody signed in) may read a link (docs/ARCHITECTURE.md#share-links): its
 * owner always; `public` anyone while the domain allows public links, else it reads as `domain`;
 * `domain` the people of the owner's domain; `department` those of the department stored with it.
 * Nobody of another domain, a SuperAdmin included, reads a link that is not public.
 */
export function mayReadShare(
  reader: UserCaller | null,
  share: ShareAudienceOf,
  publicLinks: boolean,
): boolean {
  if (share.audience === 'public' && publicLinks) return true;
  if (!reader || reader.domain.id !== share.domainId) return false;
  if (reader.user.id === share.userId) return true;
  return share.audience !== 'department' || reader.user.departmentId === share.departmentId;
}
