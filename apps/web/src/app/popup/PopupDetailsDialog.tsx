import { Button, Group, Modal, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useStore } from '@mantine/store';
import { useTranslation } from '../../lib/i18n/index.ts';
import { AlertIllustration } from '../../ui/AlertIllustration.tsx';
import type { PopupController } from '../../ui/popup/popupStore.ts';

/** docs/ARCHITECTURE.md#interface-constants: 450 px wide, card 500 px high. */
export const DETAILS_DIALOG_WIDTH = 450;
export const DETAILS_CARD_HEIGHT = 500;

/** The popup's details dialog: alert image, title, "details: …" and try again. */
export default function PopupDetailsDialog({ controller }: { controller: PopupController }) {
  const state = useStore(controller.store);
  const { t } = useTranslation();
  return (
    <Modal
      opened={state.dialogOpen}
      onClose={controller.closeDetails}
      size={DETAILS_DIALOG_WIDTH}
      centered
      radius="lg"
      padding={0}
      withCloseButton={false}
      aria-label={state.title}
      zIndex={1100}
    >
      <Stack
        h={DETAILS_CARD_HEIGHT}
        mah="calc(100dvh - 4rem)"
        p="lg"
        gap="md"
        align="center"
        data-testid="popup-details"
      >
        <AlertIllustration size={112} />
        <Title order={3} ta="center" size="h4">
          {state.title}
        </Title>
        <ScrollArea w="100%" style={{ flex: 1 }} type="auto">
          <Text
            size="sm"
            c="neutral.8"
            bg="neutral.0"
            p="sm"
            style={{
              borderRadius: 'var(--mantine-radius-md)',
              whiteSpace: 'pre-wrap',
              overflowWrap: 'anywhere',
            }}
          >
            {t('popup.details_label')}
            {state.details || t('popup.details_unavailable')}
          </Text>
        </ScrollArea>
        <Group w="100%" justify="flex-end" gap="sm">
          <Button variant="default" onClick={controller.closeDetails}>
            {t('popup.close')}
          </Button>
          <Button onClick={controller.tryAgain}>{t('popup.try_again')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
