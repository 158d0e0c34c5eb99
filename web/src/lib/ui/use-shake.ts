import { useCallback, useEffect, useRef, useState } from "react";
import classes from "./shake.module.css";

export const SHAKE_MS = 500;

/** Briefly shakes an element, for example a code box after a wrong code (spec 000 §9: 500 ms). */
export function useShake(): { className: string | undefined; shake: () => void } {
  const [active, setActive] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  const shake = useCallback(() => {
    window.clearTimeout(timer.current);
    setActive(false);
    // Restart the animation even if it is still running from a previous call.
    requestAnimationFrame(() => {
      setActive(true);
      timer.current = window.setTimeout(() => setActive(false), SHAKE_MS);
    });
  }, []);

  useEffect(() => () => window.clearTimeout(timer.current), []);
  return { className: active ? classes.shake : undefined, shake };
}
