import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { PageHeaders } from '@assistente/contracts';
import type { FastifyReply } from 'fastify';
import { invalidCursor } from './errors.ts';
import { keyedBySecret } from './secrets.ts';

/** One page of a keyset-paged list. */
export interface Page<T> {
  items: T[];
  total: number;
  nextCursor?: string;
}

/** A store's page: the sort key of its last row when more follow, for the service to make a cursor of. */
export interface KeyedPage<T> {
  items: T[];
  total: number;
  nextKey?: readonly string[];
}

/**
 * Cuts the rows of a `limit + 1` query to one page: the extra row only says that a next page
 * exists, and the page's last row gives its key.
 */
export function keyedPage<R, T>(
  rows: R[],
  limit: number,
  total: number,
  keyOf: (row: R) => readonly string[],
  map: (row: R) => T,
): KeyedPage<T> {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(map),
    total,
    ...(rows.length > limit && last !== undefined ? { nextKey: keyOf(last) } : {}),
  };
}

type Key<N extends 2 | 3> = N extends 2 ? [string, string] : [string, string, string];

/**
 * Opaque keyset cursors: base64url of `[tag, ...sortKey]` and a MAC over it. The tag names the list
 * and its sort (e.g. `users:createdAt:desc`), so a cursor made for one order is refused by another;
 * the MAC refuses any cursor this instance did not make, so a forged sort value never reaches a SQL
 * cast (a 500) — it is a 400 like any other bad input.
 */
export interface CursorCodec {
  encode(tag: string, key: readonly string[]): string;
  /** The sort key of a cursor made by `encode` with the same tag and `size` values; else undefined. */
  decode<N extends 2 | 3>(tag: string, cursor: string, size: N): Key<N> | undefined;
  /** `decode`, or a 400 for a cursor that is not this list's. */
  parse<N extends 2 | 3>(tag: string, cursor: string | undefined, size: N): Key<N> | undefined;
  /** A store's page as the API's page, its items mapped, with the cursor of the next one. */
  page<R, T>(tag: string, page: KeyedPage<R>, map: (row: R) => T): Page<T>;
}

const MAC_BYTES = 16;

/** The codec keyed by a subkey of `secret` (no other use of the secret shares it). */
export function createCursorCodec(secret: string): CursorCodec {
  const key = Buffer.from(hkdfSync('sha256', secret, 'assistente', 'cursors:v1', 32));
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);

  const codec: CursorCodec = {
    encode(tag, sortKey) {
      const payload = Buffer.from(JSON.stringify([tag, ...sortKey])).toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    decode<N extends 2 | 3>(tag: string, cursor: string, size: N): Key<N> | undefined {
      const [payload, sig, extra] = cursor.split('.');
      if (!payload || !sig || extra !== undefined) return undefined;
      const given = Buffer.from(sig, 'base64url');
      if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(payload))) return undefined;
      try {
        const v: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
        if (
          Array.isArray(v) &&
          v.length === size + 1 &&
          v[0] === tag &&
          v.every((part) => typeof part === 'string')
        ) {
          return v.slice(1) as Key<N>;
        }
      } catch {
        // fall through: not a cursor we made
      }
      return undefined;
    },
    parse(tag, cursor, size) {
      if (cursor === undefined) return undefined;
      const sortKey = codec.decode(tag, cursor, size);
      if (!sortKey) throw invalidCursor();
      return sortKey;
    },
    page(tag, page, map) {
      return {
        items: page.items.map(map),
        total: page.total,
        ...(page.nextKey ? { nextCursor: codec.encode(tag, page.nextKey) } : {}),
      };
    },
  };
  return codec;
}

/** The instance's cursor codec: keyed by SECRET_KEY, which replicas share, so any replica reads any cursor. */
export const cursorsFor = keyedBySecret(createCursorCodec);

/**
 * Answers a page, on every paged route: the items as a JSON array, the total (when the list has
 * one) and the next page's cursor as headers.
 */
export function sendPage<T>(
  reply: FastifyReply,
  page: { items: T[]; total?: number; nextCursor?: string },
): T[] {
  if (page.total !== undefined) reply.header(PageHeaders.total, String(page.total));
  if (page.nextCursor) reply.header(PageHeaders.nextCursor, page.nextCursor);
  // For a web app served from another origin (scale-out service URLs): let it read the paging headers.
  reply.header('access-control-expose-headers', `${PageHeaders.total}, ${PageHeaders.nextCursor}`);
  return page.items;
}

/** `%`, `_` and `\` match themselves in a LIKE pattern built from user input. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
