import { Badge, Button, Card, Group, Modal, ScrollArea, SimpleGrid, Title } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { formatDateTime } from '../../../ui/format.ts';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { ReadOnlyField } from '../../../ui/ReadOnlyField.tsx';
import { EulaText, useEulaStatus } from '../../eula/index.ts';

/** The user's EULA and privacy record: when and which version they accepted. */
export function TermsTab() {
  const { t, i18n } = useTranslation();
  const status = useEulaStatus();
  const [reading, setReading] = useState(false);

  if (status.isPending) return <ListSkeleton rows={2} label={t('app.loading')} />;
  if (status.isError) return <LoadError title={t('settings.errors.load_failed')} query={status} />;
  const { eula, currentVersion } = status.data;
  const accepted = eula.accept && !eula.pendingRevision;

  return (
    <Card withBorder radius="lg" padding="lg" data-testid="terms-record">
      <Group justify="space-between" mb="md" gap="sm">
        <Title order={2} size="h4">
          {t('settings.terms.title')}
        </Title>
        <Badge variant={accepted ? 'light' : 'outline'} color={accepted ? 'green' : 'accent.8'} radius="sm">
          {t(accepted ? 'settings.terms.accepted' : 'settings.terms.pending')}
        </Badge>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <ReadOnlyField
          label={t('settings.terms.accepted_at')}
          value={formatDateTime(eula.timestamp, i18n.language)}
        />
        <ReadOnlyField
          label={t('settings.terms.accepted_version')}
          value={eula.accept ? eula.version : '—'}
        />
        <ReadOnlyField label={t('settings.terms.current_version')} value={currentVersion} />
        <ReadOnlyField
          label={t('settings.terms.privacy_policy')}
          value={t(eula.isPrivacyPolicy ? 'common.yes' : 'common.no')}
        />
      </SimpleGrid>
      <Button
        mt="lg"
        variant="light"
        leftSection={<IconFileText size={16} />}
        onClick={() => setReading(true)}
      >
        {t('settings.terms.read')}
      </Button>
      <Modal
        closeButtonProps={{ 'aria-label': t('popup.close') }}
        opened={reading}
        onClose={() => setReading(false)}
        title={t('eula.title')}
        centered
        radius="lg"
        size="lg"
      >
        <ScrollArea.Autosize mah="60dvh" type="auto" offsetScrollbars>
          <EulaText />
        </ScrollArea.Autosize>
      </Modal>
    </Card>
  );
}
