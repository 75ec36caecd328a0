export type ScrollTarget =
  | { kind: 'restore'; y: number }
  | { kind: 'anchor'; id: string }
  | { kind: 'top' }
  | { kind: 'none' };

/**
 * Where to scroll after a navigation: back/forward restores the saved position; a hash goes to
 * its anchor; otherwise to the top unless the route opts out (`handle.scrollToTop === false`).
 */
export function scrollTarget(input: {
  navigationType: 'POP' | 'PUSH' | 'REPLACE';
  hash: string;
  savedY: number | undefined;
  scrollToTop: boolean;
}): ScrollTarget {
  if (input.navigationType === 'POP' && input.savedY !== undefined)
    return { kind: 'restore', y: input.savedY };
  if (input.hash.length > 1) {
    let id = input.hash.slice(1);
    try {
      id = decodeURIComponent(id);
    } catch {
      // keep the raw id
    }
    return { kind: 'anchor', id };
  }
  return input.scrollToTop ? { kind: 'top' } : { kind: 'none' };
}
