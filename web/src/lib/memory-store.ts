import { useSyncExternalStore } from "react";

/**
 * A value held in this page's memory only (never in any storage that outlives it), with
 * subscribers: the unlocked account keys and a pickup guest's keys are such values.
 */
export function memoryStore<T>() {
  type Listener = () => void;
  const listeners = new Set<Listener>();
  let current: T | null = null;
  const emit = () => {
    for (const listener of listeners) listener();
  };
  const get = (): T | null => current;
  const subscribe = (listener: Listener): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return {
    get,
    set(value: T): void {
      current = value;
      emit();
    },
    clear(): void {
      if (current === null) return;
      current = null;
      emit();
    },
    subscribe,
    use: (): T | null => useSyncExternalStore(subscribe, get),
  };
}
