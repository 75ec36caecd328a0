import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A page's tab kept in `?tab=`, so a link can open it and a reload keeps it. On a phone a tab list
 * scrolls sideways: `listRef` brings the chosen tab into sight, even one at the end of the list.
 */
export function useTabParam<T extends string>(tabs: readonly T[], fallback: T) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = tabs.find((candidate) => candidate === requested) ?? fallback;
  const listRef = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the selected tab
  useEffect(() => {
    listRef.current
      ?.querySelector('[role="tab"][aria-selected="true"]')
      ?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [tab]);
  const setTab = (value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('tab', value ?? fallback);
        return next;
      },
      { replace: true },
    );
  return { tab, setTab, listRef };
}
