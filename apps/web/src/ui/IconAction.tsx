import { ActionIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { Tooltip } from './DeferredFloating.tsx';

/** A row's icon-only action (edit, delete, pause…): its label is both the tooltip and the accessible name. */
export function IconAction({
  label,
  icon,
  onClick,
  danger = false,
  loading,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  danger?: boolean;
  loading?: boolean;
}) {
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant="subtle"
        color={danger ? 'error' : 'neutral.7'}
        onClick={onClick}
        loading={loading}
        aria-label={label}
      >
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}
