import { useEffect } from 'react';
import classes from './TopProgressBar.module.css';

/**
 * A thin indeterminate bar at the top of the page (docs/ARCHITECTURE.md#shell-routes-and-guards "App shell"). The page's HTML shows one
 * (#boot-progress) until the app first renders this, which takes over from it.
 */
export function TopProgressBar({ active, label }: { active: boolean; label: string }) {
  useEffect(() => {
    document.getElementById('boot-progress')?.remove();
  }, []);
  if (!active) return null;
  return (
    <div
      className={classes.bar}
      role="progressbar"
      aria-label={label}
      aria-busy="true"
      data-testid="top-progress"
    />
  );
}
