import type { ResponseSchema } from './client.ts';
import { type Answer, arrayOf, parsed } from './schemas.ts';

/** One page of a keyset-paged list: the items, the total and the next page's cursor. */
export interface Page<T> {
  items: T[];
  total: number;
  nextCursor: string | null;
}

/** The paging headers of every list (docs/ARCHITECTURE.md#request-path). */
const TOTAL_HEADER = 'X-Total-Count';
const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

/** One page of a list: the JSON array checked item by item, with `X-Total-Count` and `X-Next-Cursor`. */
export async function page<T>(item: ResponseSchema<T>, call: Promise<Answer>): Promise<Page<T>> {
  const answer = await call;
  const items = await parsed(arrayOf(item), Promise.resolve(answer));
  const read = (name: string): string | null => answer.response.headers.get(name);
  const total = Number(read(TOTAL_HEADER));
  return {
    items,
    total: Number.isFinite(total) && read(TOTAL_HEADER) !== null ? total : items.length,
    nextCursor: read(NEXT_CURSOR_HEADER) || null,
  };
}
