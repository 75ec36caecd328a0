import { type TouchEvent, useRef, useState } from 'react';

/** A horizontal swipe this long dismisses (docs/ARCHITECTURE.md#interface-constants: 50 px). */
const SWIPE_THRESHOLD_PX = 50;

/** Touch handlers that follow the finger horizontally and call `onDismiss` past the threshold. */
export function useSwipeToDismiss(onDismiss: () => void) {
  const startX = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);

  const reset = () => {
    startX.current = null;
    setOffset(0);
  };

  return {
    offset,
    handlers: {
      onTouchStart(event: TouchEvent) {
        startX.current = event.touches[0]?.clientX ?? null;
      },
      onTouchMove(event: TouchEvent) {
        const x = event.touches[0]?.clientX;
        if (startX.current === null || x === undefined) return;
        setOffset(x - startX.current);
      },
      onTouchEnd(event: TouchEvent) {
        const x = event.changedTouches[0]?.clientX;
        const distance = startX.current === null || x === undefined ? offset : x - startX.current;
        reset();
        if (Math.abs(distance) >= SWIPE_THRESHOLD_PX) onDismiss();
      },
      onTouchCancel: reset,
    },
  };
}
