import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * Asks before a destructive or far-reaching action. Focus is trapped, Esc or Cancel closes it,
 * and the confirm button has the focus so Enter confirms; `error` shows why the action failed.
 */
export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onClose,
  loading = false,
  danger = true,
  error,
  children,
}: {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  loading?: boolean;
  danger?: boolean;
  error?: string | null;
  children?: ReactNode;
}) {
  return (
    <Modal
      withCloseButton={false}
      opened={opened}
      onClose={() => {
        if (!loading) onClose();
      }}
      title={title}
      centered
      radius="lg"
      size="md"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!loading) onConfirm();
        }}
      >
        <Stack gap="md">
          <Text size="sm">{message}</Text>
          {children}
          {error ? (
            <Alert color="error" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
              {error}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={loading}>
              {cancelLabel}
            </Button>
            <Button type="submit" color={danger ? 'error' : 'primary'} loading={loading} data-autofocus>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
