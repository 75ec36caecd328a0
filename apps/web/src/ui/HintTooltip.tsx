import { type ReactElement, useId } from 'react';
import classes from './HintTooltip.module.css';

/**
 * A hover/focus tooltip in CSS alone (no positioning engine): for short hints on elements that
 * stay in place, such as the unavailable sign-in providers on the login page.
 */
export function HintTooltip({
  label,
  children,
}: {
  label: string;
  children: (describedBy: string) => ReactElement;
}) {
  const id = useId();
  return (
    <span className={classes.root}>
      {children(id)}
      <span role="tooltip" id={id} className={classes.tip}>
        {label}
      </span>
    </span>
  );
}
