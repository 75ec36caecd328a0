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
