/**
 * Runs `work` over `items`, `n` at a time. After a failure no new item starts; the ones running
 * finish, then the first failure is thrown.
 */
export async function atOnce<T>(
  items: readonly T[],
  n: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  let failure: unknown;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length && !failed) {
        const item = items[next++] as T;
        try {
          await work(item);
        } catch (err) {
          if (!failed) failure = err;
          failed = true;
        }
      }
    }),
  );
  if (failed) throw failure;
}

/**
 * The items of `source`, asking it for the next one as soon as one is handed over: the consumer's
 * work on an item overlaps the wait for the following one (one item ahead, never more). When
 * the consumer stops early, a read already under way is left to settle on its own.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let next = it.next();
  let finished = false;
  try {
    for (;;) {
      const r = await next;
      if (r.done) {
        finished = true;
        return;
      }
      next = it.next();
      // Awaited on the next turn; marked handled now in case the consumer never comes back for it.
      next.catch(() => {});
      yield r.value;
    }
  } finally {
    if (!finished) void it.return?.()?.catch(() => {});
  }
}
