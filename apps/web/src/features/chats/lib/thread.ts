import type { Message } from '@assistente/contracts';

/** The parent key of first messages (and of messages whose parent is on a page not loaded yet). */
export const ROOT = '__root__';

/** What the message list needs: messages in order, oldest first (createdAt, then id). */
export interface MessagesById {
  byId: Readonly<Record<string, Message>>;
  ids: readonly string[];
  /** The branch chosen at each fork: parent key → child id. */
  selection: Readonly<Record<string, string>>;
}

export interface SiblingInfo {
  /** 1-based position among the siblings. */
  index: number;
  count: number;
  prev: string | null;
  next: string | null;
  parentKey: string;
}

export interface ThreadView {
  /** The branch shown, root → leaf. */
  path: Message[];
  /** For each message on the path with siblings (edits, regenerations): where it stands. */
  siblings: Readonly<Record<string, SiblingInfo>>;
  /** The last message of the branch shown: what the next message follows. */
  leafId: string | null;
}

function parentKeyOf(message: Message, byId: Readonly<Record<string, Message>>): string {
  return message.parentId && byId[message.parentId] ? message.parentId : ROOT;
}

const cache = new WeakMap<MessagesById, ThreadView>();

/**
 * The branch to show. At each fork it follows the chosen child, else the child whose subtree
 * holds the newest message — so a new edit or regeneration shows at once and a reload shows the
 * branch the user last wrote in (the server appends to the newest message too).
 */
export function visibleThread(state: MessagesById): ThreadView {
  const cached = cache.get(state);
  if (cached) return cached;
  const { byId, ids, selection } = state;
  const children = new Map<string, string[]>();
  for (const id of ids) {
    const message = byId[id];
    if (!message) continue;
    const key = parentKeyOf(message, byId);
    const list = children.get(key);
    if (list) list.push(id);
    else children.set(key, [id]);
  }
  // Children are always newer than their parent: walking newest → oldest, a node's children
  // already know the newest message of their subtrees.
  const newest = new Map<string, number>();
  for (let i = ids.length - 1; i >= 0; i--) {
    const id = ids[i] as string;
    let best = i;
    for (const child of children.get(id) ?? []) best = Math.max(best, newest.get(child) ?? -1);
    newest.set(id, best);
  }

  const path: Message[] = [];
  const siblings: Record<string, SiblingInfo> = {};
  const seen = new Set<string>();
  let key = ROOT;
  for (;;) {
    const kids = children.get(key);
    if (!kids || kids.length === 0) break;
    let chosen = selection[key];
    if (!chosen || !kids.includes(chosen)) {
      chosen = kids.reduce((a, b) => ((newest.get(b) ?? -1) > (newest.get(a) ?? -1) ? b : a));
    }
    if (seen.has(chosen)) break;
    seen.add(chosen);
    const message = byId[chosen];
    if (!message) break;
    path.push(message);
    if (kids.length > 1) {
      const at = kids.indexOf(chosen);
      siblings[chosen] = {
        index: at + 1,
        count: kids.length,
        prev: kids[at - 1] ?? null,
        next: kids[at + 1] ?? null,
        parentKey: key,
      };
    }
    key = chosen;
  }
  const view: ThreadView = { path, siblings, leafId: path[path.length - 1]?.messageId ?? null };
  cache.set(state, view);
  return view;
}
