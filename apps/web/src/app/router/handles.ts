import type { UIMatch } from 'react-router';
import type { RouteMeta } from './routeMeta.ts';

function isRouteMeta(handle: unknown): handle is RouteMeta {
  return typeof handle === 'object' && handle !== null && 'titleKey' in handle && 'path' in handle;
}

/** The deepest matched route's metadata. */
export function leafMeta(matches: readonly UIMatch[]): RouteMeta | null {
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle;
    if (isRouteMeta(handle)) return handle;
  }
  return null;
}
