import { ScrollArea, Tabs } from '@mantine/core';
import { type ReactNode, type Ref, useCallback, useEffect, useRef, useState } from 'react';
import classes from './TabStrip.module.css';

/**
 * A page's tab list. When the tabs do not fit (a phone, a longer language) it scrolls sideways, and
 * the edge that hides more tabs fades out, so nobody takes the visible ones for all there are.
 */
export function TabStrip({ listRef, children }: { listRef?: Ref<HTMLDivElement>; children: ReactNode }) {
  const viewport = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ start: false, end: false });

  const measure = useCallback(() => {
    const v = viewport.current;
    if (!v) return;
    // A pixel of slack: zoomed pages report fractional scroll positions.
    const start = v.scrollLeft > 1;
    const end = v.scrollLeft + v.clientWidth < v.scrollWidth - 1;
    setMore((prev) => (prev.start === start && prev.end === end ? prev : { start, end }));
  }, []);

  useEffect(() => {
    const v = viewport.current;
    measure();
    if (!v || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(v);
    if (v.firstElementChild) observer.observe(v.firstElementChild);
    return () => observer.disconnect();
  }, [measure]);

  return (
    <div
      className={classes.strip}
      data-more-start={more.start || undefined}
      data-more-end={more.end || undefined}
      data-testid="tab-strip"
    >
      <ScrollArea type="hover" scrollbarSize={4} viewportRef={viewport} onScrollPositionChange={measure}>
        <Tabs.List ref={listRef} className={classes.list}>
          {children}
        </Tabs.List>
      </ScrollArea>
    </div>
  );
}
