import { type Domain, formatCnpj } from '@assistente/contracts';
import { Card, Group, SimpleGrid, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { ReadOnlyField } from '../../../ui/ReadOnlyField.tsx';
import { DomainBadges } from './DomainBadges.tsx';

/** An Admin's view of their own domain: read-only (docs/ARCHITECTURE.md#roles-and-permissions). */
export function OwnDomainCard({ domain }: { domain: Domain }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="own-domain">
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <Title order={2} size="h4">
          {domain.displayName}
        </Title>
        <DomainBadges domain={domain} />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <ReadOnlyField label={t('domains.fields.domain')} value={domain._id} />
        <ReadOnlyField label={t('domains.fields.cnpj')} value={domain.cnpj ? formatCnpj(domain.cnpj) : ''} />
        <ReadOnlyField
          label={t('domains.fields.created_by')}
          value={domain.creator.name || domain.creator.email}
        />
      </SimpleGrid>
      <Text size="sm" c="dimmed" mt="lg">
        {t('domains.read_only')}
      </Text>
    </Card>
  );
}
