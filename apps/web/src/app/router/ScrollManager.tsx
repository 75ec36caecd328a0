import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useMatches, useNavigationType } from 'react-router';
import { leafMeta } from './handles.ts';
import { scrollTarget } from './scroll.ts';

/** Applies the scroll rule of `scrollTarget` on every navigation. */
export function ScrollManager() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const matches = useMatches();
  const positions = useRef(new Map<string, number>());
  const meta = leafMeta(matches);
  const scrollToTop = meta?.scrollToTop !== false;

  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
  }, []);

  // Remember where each history entry was scrolled to, for back/forward.
  useEffect(() => {
    const key = location.key;
    const save = () => positions.current.set(key, window.scrollY);
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, [location.key]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per navigation (location.key)
  useLayoutEffect(() => {
    const target = scrollTarget({
      navigationType,
      hash: location.hash,
      savedY: positions.current.get(location.key),
      scrollToTop,
    });
    switch (target.kind) {
      case 'restore':
        window.scrollTo(0, target.y);
        break;
      case 'anchor': {
        const element = document.getElementById(target.id);
        if (element) element.scrollIntoView();
        else if (scrollToTop) window.scrollTo(0, 0);
        break;
      }
      case 'top':
        window.scrollTo(0, 0);
        break;
      case 'none':
        break;
    }
  }, [location.key]);

  return null;
}
