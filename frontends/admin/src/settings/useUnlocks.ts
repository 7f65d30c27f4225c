import { useCallback, useEffect, useRef, useState } from 'react';

/** A protected setting stays unlocked for 10,000 ms after the last edit, then locks again. */
export const UNLOCK_MS = 10_000;

export interface Unlocks {
  isUnlocked(key: string): boolean;
  /** Unlocks `key` (after the admin confirmed) for UNLOCK_MS. */
  unlock(key: string): void;
  /** An edit of `key`: its unlock lasts UNLOCK_MS from now. No effect on a locked key. */
  touch(key: string): void;
}

export function useUnlocks(ms: number = UNLOCK_MS): Unlocks {
  const [unlocked, setUnlocked] = useState<ReadonlySet<string>>(() => new Set());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const lock = useCallback((key: string) => {
    clearTimeout(timers.current.get(key));
    timers.current.delete(key);
    setUnlocked((previous) => {
      if (!previous.has(key)) return previous;
      const next = new Set(previous);
      next.delete(key);
      return next;
    });
  }, []);

  const arm = useCallback(
    (key: string) => {
      clearTimeout(timers.current.get(key));
      timers.current.set(
        key,
        setTimeout(() => lock(key), ms),
      );
    },
    [lock, ms],
  );

  const unlock = useCallback(
    (key: string) => {
      setUnlocked((previous) => new Set(previous).add(key));
      arm(key);
    },
    [arm],
  );

  const touch = useCallback(
    (key: string) => {
      if (timers.current.has(key)) arm(key);
    },
    [arm],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const isUnlocked = useCallback((key: string) => unlocked.has(key), [unlocked]);
  return { isUnlocked, unlock, touch };
}
