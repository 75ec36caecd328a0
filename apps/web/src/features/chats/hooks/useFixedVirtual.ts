import { type RefObject, useEffect, useState } from 'react';

export interface VirtualWindow {
  /** First row to render (inclusive). */
  start: number;
  /** Last row to render (exclusive). */
  end: number;
  /** Height of every row together: the spacer that gives the scroll bar its size. */
  totalHeight: number;
}

/** The rows of a fixed-row-height list a viewport shows, with `overscan` rows either side. */
export function virtualWindow(
  count: number,
  rowHeight: number,
  scrollTop: number,
  viewport: number,
  overscan: number,
): VirtualWindow {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const visible = Math.ceil(Math.max(viewport, rowHeight) / rowHeight) + 1;
  return {
    start: Math.max(0, first - overscan),
    end: Math.min(count, first + visible + overscan),
    totalHeight: count * rowHeight,
  };
}

/**
 * Virtualises a list whose rows all have one height: only the rows in view (plus `overscan`) are
 * rendered, so ten thousand chats cost as much as thirty. Scroll and resize are read once per frame.
 */
export function useFixedVirtual(
  scrollRef: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
  overscan = 8,
): VirtualWindow {
  const [view, setView] = useState({ top: 0, height: 600 });

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      setView((v) =>
        v.top === el.scrollTop && v.height === el.clientHeight
          ? v
          : { top: el.scrollTop, height: el.clientHeight },
      );
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(read);
    };
    read();
    el.addEventListener('scroll', schedule, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(schedule);
    observer?.observe(el);
    return () => {
      el.removeEventListener('scroll', schedule);
      observer?.disconnect();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [scrollRef]);

  return virtualWindow(count, rowHeight, view.top, view.height, overscan);
}
