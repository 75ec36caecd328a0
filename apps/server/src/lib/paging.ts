import { PageHeaders } from '@assistente/contracts';
import type { FastifyReply } from 'fastify';
import { AppError } from './errors.ts';

/** One page of a keyset-paged list. */
export interface Page<T> {
  items: T[];
  total: number;
  nextCursor?: string;
}

/**
 * Opaque keyset cursor: base64url of `[tag, sortValue, id]`. The tag names the list and its sort
 * (e.g. `users:createdAt:desc`), so a cursor made for one order is refused by another.
 */
export function encodeKeyset(tag: string, key: readonly [string, string]): string {
  return Buffer.from(JSON.stringify([tag, key[0], key[1]])).toString('base64url');
}

/** The sort key of a cursor made by `encodeKeyset` with the same tag; undefined otherwise. */
export function decodeKeyset(tag: string, cursor: string): [string, string] | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(v) &&
      v.length === 3 &&
      v[0] === tag &&
      typeof v[1] === 'string' &&
      typeof v[2] === 'string'
    ) {
      return [v[1], v[2]];
    }
  } catch {
    // fall through: not a cursor we made
  }
  return undefined;
}

/** `decodeKeyset`, or a 400 for a cursor that is not this list's. */
export function parseCursor(tag: string, cursor: string | undefined): [string, string] | undefined {
  if (cursor === undefined) return undefined;
  const key = decodeKeyset(tag, cursor);
  if (!key) throw new AppError('BAD_REQUEST', 'Invalid cursor');
  return key;
}

/** Answers a page: the items as a JSON array, the total and next cursor as headers. */
export function sendPage<T>(reply: FastifyReply, page: Page<T>): T[] {
  reply.header(PageHeaders.total, String(page.total));
  if (page.nextCursor) reply.header(PageHeaders.nextCursor, page.nextCursor);
  // For a web app served from another origin (scale-out service URLs): let it read the paging headers.
  reply.header('access-control-expose-headers', `${PageHeaders.total}, ${PageHeaders.nextCursor}`);
  return page.items;
}

/** `%`, `_` and `\` match themselves in a LIKE pattern built from user input. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
