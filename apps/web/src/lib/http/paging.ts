import type { HttpClient, QueryValue, ResponseSchema } from './client.ts';
import { arrayOf } from './schemas.ts';

/** One page of a keyset-paged list: the items, the total and the next page's cursor. */
export interface Page<T> {
  items: T[];
  total: number;
  nextCursor: string | null;
}

/** The paging headers of every list (docs/ARCHITECTURE.md#request-path). */
const TOTAL_HEADER = 'X-Total-Count';
const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

/** GETs one page of a list: the JSON array, with `X-Total-Count` and `X-Next-Cursor` read from the headers. */
export async function getPage<T>(
  http: HttpClient,
  path: string,
  item: ResponseSchema<T>,
  query: Record<string, QueryValue>,
): Promise<Page<T>> {
  let headers: Headers | null = null;
  const items = await http.get(path, {
    query,
    schema: arrayOf(item),
    onResponse: (response) => {
      headers = response.headers;
    },
  });
  const read = (name: string): string | null => (headers as Headers | null)?.get(name) ?? null;
  const total = Number(read(TOTAL_HEADER));
  return {
    items,
    total: Number.isFinite(total) && read(TOTAL_HEADER) !== null ? total : items.length,
    nextCursor: read(NEXT_CURSOR_HEADER) || null,
  };
}
