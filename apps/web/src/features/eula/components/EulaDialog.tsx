import type { User } from '@assistente/contracts';
import { Alert, Button, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { useAcceptEula } from '../hooks/useAcceptEula.ts';
import { EulaText } from './EulaText.tsx';

/**
 * docs/ARCHITECTURE.md#organisations-domains-departments-premium: while `eula.pendingRevision` is set, a blocking dialog (no close button, no Esc, no
 * click outside) with the terms and `Aceitar`. Declining is signing out.
 */
export function EulaDialog({
  user,
  version,
  onSignOut,
}: {
  user: User;
  /** The version the domain asks for now, when known. */
  version?: string;
  onSignOut: () => void;
}) {
  const { t } = useTranslation();
  const accept = useAcceptEula();
  const shown = version ?? user.eula.version;
  return (
    <Modal
      opened
      onClose={() => {}}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      centered
      radius="lg"
      size="lg"
      title={t('eula.title')}
      aria-describedby="eula-summary"
      data-testid="eula-dialog"
      overlayProps={{ backgroundOpacity: 0.55, blur: 3 }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed" id="eula-summary">
          {t(user.eula.accept ? 'eula.revised' : 'eula.first_time', { version: shown })}
        </Text>
        <ScrollArea.Autosize mah="45dvh" type="auto" offsetScrollbars>
          <EulaText />
        </ScrollArea.Autosize>
        {accept.isError ? (
          <Alert color="error" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
            {apiErrorText(t, accept.error)}
          </Alert>
        ) : null}
        <Group justify="space-between" gap="sm" wrap="wrap-reverse">
          <Button variant="subtle" color="neutral.7" onClick={onSignOut} disabled={accept.isPending}>
            {t('eula.decline')}
          </Button>
          <Button
            data-autofocus
            loading={accept.isPending}
            onClick={() => accept.mutate({ user, ...(version ? { version } : {}) })}
          >
            {t('eula.accept')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
