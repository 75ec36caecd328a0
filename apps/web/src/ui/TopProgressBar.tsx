import classes from './TopProgressBar.module.css';

/** A thin indeterminate bar at the top of the page (spec §2 "App shell"). */
export function TopProgressBar({ active, label }: { active: boolean; label: string }) {
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
