import { EmptyState, Paper } from '@mantine/core';
import type { ReactNode } from 'react';

/** An empty state inside a soft panel: icon, title, description and optional actions. */
export function EmptyPanel({
  icon,
  title,
  description,
  children,
}: {
  icon: ReactNode;
  title: string;
  description?: string;
  children?: ReactNode;
}) {
  return (
    <Paper withBorder radius="lg" py={56} px="lg" bg="neutral.0" style={{ borderStyle: 'dashed' }}>
      <EmptyState
        variant="light"
        color="primary"
        size="md"
        icon={icon}
        title={title}
        description={description}
      >
        {children ? <EmptyState.Actions>{children}</EmptyState.Actions> : null}
      </EmptyState>
    </Paper>
  );
}
