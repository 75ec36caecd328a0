import { Drawer } from '@mantine/core';
import type { ReactNode } from 'react';

/** The parameters panel as a drawer, on a phone: its own chunk, so wide screens never fetch a modal. */
export default function ParamsDrawer({
  opened,
  onClose,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="90%" withCloseButton={false} padding={0}>
      {children}
    </Drawer>
  );
}
