import { Alert, Button, Group, Modal, type ModalProps, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type FormEventHandler, type ReactNode, useCallback, useState } from 'react';
import { useTranslation } from '../lib/i18n/index.ts';
import { apiErrorCode, apiErrorText } from './apiError.ts';
import classes from './FormDialog.module.css';

/**
 * A dialog holding one form (create, edit, invite): its fields, why the last submit failed, and
 * Cancel / submit. Closing is refused while the submit is under way.
 */
export function FormDialog({
  opened,
  title,
  onClose,
  onSubmit,
  pending,
  failure,
  submitLabel,
  size,
  aside,
  children,
}: {
  opened: boolean;
  title: string;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  pending: boolean;
  failure: string | null;
  submitLabel: string;
  size?: ModalProps['size'];
  /** Shown beside the form (under it when the dialog is narrow), outside it: a preview, say. */
  aside?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const close = () => {
    if (!pending) onClose();
  };
  const form = (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        {children}
        {failure ? (
          <Alert color="error" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={close} disabled={pending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('popup.close') }}
      opened={opened}
      onClose={close}
      title={title}
      centered
      radius="lg"
      size={size}
    >
      {aside ? (
        <div className={classes.split}>
          <div className={classes.columns}>
            {form}
            {aside}
          </div>
        </div>
      ) : (
        form
      )}
    </Modal>
  );
}

/**
 * Why the last submit of a FormDialog failed. `fail` shows the API's message, except that a
 * CONFLICT goes to `onConflict` when given (a field error such as "this name is taken").
 */
export function useSubmitFailure() {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  // Stable: dialogs clear the failure in the effect that resets them when they open.
  const clear = useCallback(() => setFailure(null), []);
  const fail = useCallback(
    (error: unknown, onConflict?: () => void) => {
      if (onConflict && apiErrorCode(error) === 'CONFLICT') onConflict();
      else setFailure(apiErrorText(t, error));
    },
    [t],
  );
  return { failure, clear, fail };
}
