import type {
  Menu as MantineMenu,
  MenuDropdownProps,
  MenuProps,
  MenuTargetProps,
  TooltipProps,
} from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import {
  type ComponentType,
  cloneElement,
  createContext,
  createElement,
  isValidElement,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
  use,
  useCallback,
  useRef,
  useState,
} from 'react';
import { type Lazy, lazyModule, useLazyModule, useLoadedModule } from './lazyModule.ts';

/** What the deferred chunk provides: Mantine's own components. */
export type FloatingParts = Pick<typeof import('@mantine/core'), 'Menu' | 'Tooltip'>;

type ChildProps = { ref?: Ref<HTMLElement>; onClick?: (event: MouseEvent<HTMLElement>) => void };

function refOf(element: ReactElement | null): Ref<HTMLElement> | undefined {
  return (element?.props as ChildProps | undefined)?.ref;
}

/**
 * A ref for the element a stand-in wraps. When the stand-in becomes the real component the element
 * is mounted anew; if the old one had the focus, the new one takes it (a keyboard user keeps their
 * place).
 */
function useFocusCarry(): (node: HTMLElement | null) => void {
  const state = useRef<{ node: HTMLElement | null; refocus: boolean }>({ node: null, refocus: false });
  return useCallback((node: HTMLElement | null) => {
    const carry = state.current;
    if (node) {
      if (carry.refocus) node.focus({ preventScroll: true });
      carry.refocus = false;
    } else if (carry.node?.contains(document.activeElement)) {
      // React detaches the ref before it removes the element: the focus is still there.
      carry.refocus = true;
    }
    carry.node = node;
  }, []);
}

export interface DeferredFloating {
  Tooltip: (props: TooltipProps) => ReactNode;
  Menu: ((props: MenuProps) => ReactNode) & {
    Target: (props: MenuTargetProps) => ReactNode;
    Dropdown: (props: MenuDropdownProps) => ReactNode;
    Item: (typeof MantineMenu)['Item'];
    Label: (typeof MantineMenu)['Label'];
    Divider: (typeof MantineMenu)['Divider'];
  };
  /** Starts loading the parts. */
  load: () => void;
  /** Starts loading the parts once what is on screen (when `ready`) has been painted. */
  useLoadAfterPaint: (ready?: boolean) => void;
}

/**
 * Tooltip and Menu that render the element they wrap at once and become Mantine's own once `parts`
 * has loaded, so a page's first paint carries none of the positioning engine.
 */
export function createDeferredFloating(parts: Lazy<FloatingParts>): DeferredFloating {
  const load = () => {
    parts.load().catch(() => {
      // Offline or a new build: the buttons keep working, without tooltips or menus until a retry.
    });
  };

  function Tooltip(props: TooltipProps) {
    const loaded = useLoadedModule(parts);
    const child = isValidElement(props.children) ? props.children : null;
    const ref = useMergedRef(refOf(child), useFocusCarry());
    if (!child) return loaded ? <loaded.Tooltip {...props} /> : props.children;
    if (loaded)
      return <loaded.Tooltip {...props}>{cloneElement(child, { ref } as ChildProps)}</loaded.Tooltip>;
    return cloneElement(child, { ref } as ChildProps);
  }

  /** Asks the menu to open: a click on its target before the chunk is there. */
  const RequestOpen = createContext<(() => void) | null>(null);

  function MenuRoot(props: MenuProps) {
    const loaded = useLoadedModule(parts);
    const [requested, setRequested] = useState(false);
    const request = useCallback(() => {
      setRequested(true);
      load();
    }, []);
    if (loaded) return <loaded.Menu {...props} defaultOpened={props.defaultOpened || requested} />;
    return <RequestOpen value={request}>{props.children}</RequestOpen>;
  }

  function MenuTarget(props: MenuTargetProps) {
    const loaded = useLoadedModule(parts);
    const request = use(RequestOpen);
    const child = isValidElement(props.children) ? props.children : null;
    const ref = useMergedRef(refOf(child), useFocusCarry());
    if (!child) throw new Error('Menu.Target needs a single element that takes a ref');
    if (loaded) {
      return <loaded.Menu.Target {...props}>{cloneElement(child, { ref } as ChildProps)}</loaded.Menu.Target>;
    }
    const onClick = (child.props as ChildProps).onClick;
    // The closed state of Mantine's target; a click opens the menu as soon as it is there.
    return cloneElement(child, {
      ref,
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      onClick: (event: MouseEvent<HTMLElement>) => {
        onClick?.(event);
        request?.();
      },
    } as ChildProps);
  }

  function MenuDropdown(props: MenuDropdownProps) {
    const loaded = useLoadedModule(parts);
    return loaded ? <loaded.Menu.Dropdown {...props} /> : null;
  }

  /** Rendered only inside a loaded dropdown, so the parts are there. */
  function inDropdown<K extends 'Item' | 'Label' | 'Divider'>(name: K): (typeof MantineMenu)[K] {
    function Part(props: object) {
      const loaded = useLoadedModule(parts);
      return loaded ? createElement(loaded.Menu[name] as ComponentType<object>, props) : null;
    }
    Part.displayName = `DeferredMenu.${name}`;
    // Mantine's polymorphic typing (`component={Link}`…) is kept for callers.
    return Part as unknown as (typeof MantineMenu)[K];
  }

  const Menu = Object.assign(MenuRoot, {
    Target: MenuTarget,
    Dropdown: MenuDropdown,
    Item: inDropdown('Item'),
    Label: inDropdown('Label'),
    Divider: inDropdown('Divider'),
  });

  /** Loads the parts once what is on screen now has been painted (the page's content is up). */
  function useLoadAfterPaint(ready = true): void {
    useLazyModule(parts, ready, true);
  }

  return { Tooltip, Menu, load, useLoadAfterPaint };
}

// A press in progress: the parts wait for it to end before they replace what is under it, so a
// click or key press that started on the stand-in is never lost.
let pointerDown = false;
let keyDown = false;
const waiting: Array<() => void> = [];

/** Resolves once no pointer or key is held down (after the click that release produces). */
export function inputIdle(): Promise<void> {
  if (!pointerDown && !keyDown) return Promise.resolve();
  return new Promise((resolve) => waiting.push(resolve));
}

function released(): void {
  if (pointerDown || keyDown) return;
  // After the click the press ends in has been dispatched.
  setTimeout(() => {
    for (const resolve of waiting.splice(0)) resolve();
  }, 0);
}

export const floatingParts = lazyModule<FloatingParts>(async () => {
  const module = await import('./floatingParts.ts');
  await inputIdle();
  return module;
});

const deferred = createDeferredFloating(floatingParts);

if (typeof window !== 'undefined') {
  const options = { capture: true, passive: true };
  // The first click or key press anywhere loads the parts, if the page has not asked yet; so does a
  // mouse first moving over the page (it is about to hover something that has a tooltip).
  const onMouseMove = (event: PointerEvent) => {
    if (event.pointerType === 'touch') return;
    window.removeEventListener('pointermove', onMouseMove, options);
    deferred.load();
  };
  window.addEventListener('pointermove', onMouseMove, options);
  window.addEventListener(
    'pointerdown',
    () => {
      pointerDown = true;
      deferred.load();
    },
    options,
  );
  window.addEventListener(
    'keydown',
    () => {
      keyDown = true;
      deferred.load();
    },
    options,
  );
  for (const type of ['pointerup', 'pointercancel'])
    window.addEventListener(
      type,
      () => {
        pointerDown = false;
        released();
      },
      options,
    );
  window.addEventListener(
    'keyup',
    () => {
      keyDown = false;
      released();
    },
    options,
  );
  window.addEventListener('blur', () => {
    pointerDown = false;
    keyDown = false;
    released();
  });
}

/**
 * Mantine's Tooltip and Menu bring the floating-ui positioning engine, Popover and a focus trap
 * (~30 KB gzipped) that no page needs to show its content, only once someone hovers or opens
 * something. These stand-ins render what they wrap at once and turn into Mantine's own after the
 * page has painted its content (`useLoadFloatingAfterPaint`) or at the first mouse move, click or key
 * press.
 */
export const { Tooltip, Menu } = deferred;
/** Starts loading the real Tooltip and Menu once the page's content (`ready`) has been painted. */
export const useLoadFloatingAfterPaint = deferred.useLoadAfterPaint;
