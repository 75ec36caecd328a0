/**
 * Whether a parsed body, query or frame holds a NUL character anywhere. PostgreSQL text cannot
 * store one ("invalid byte sequence"), so it is refused at the door with a 400 instead of failing
 * as a 500 deep in a store.
 */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  for (const [k, v] of Object.entries(value)) if (k.includes('\0') || containsNul(v, depth + 1)) return true;
  return false;
}

export const NUL_MESSAGE = 'Text may not contain NUL characters';
