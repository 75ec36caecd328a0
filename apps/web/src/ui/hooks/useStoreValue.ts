import type { MantineStore } from '@mantine/store';
import { useSyncExternalStore } from 'react';

/** Subscribes to one derived value of a store; re-renders only when that value changes. */
export function useStoreValue<State, Value>(
  store: MantineStore<State>,
  select: (state: State) => Value,
): Value {
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.getState()),
    () => select(store.getState()),
  );
}
