import { type Domain, formatCnpj } from '@assistente/contracts';
import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { DomainBadges } from './DomainBadges.tsx';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
        {value || '—'}
      </Text>
    </Stack>
  );
}

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
        <Field label={t('domains.fields.domain')} value={domain._id} />
        <Field label={t('domains.fields.cnpj')} value={domain.cnpj ? formatCnpj(domain.cnpj) : ''} />
        <Field label={t('domains.fields.created_by')} value={domain.creator.name || domain.creator.email} />
      </SimpleGrid>
      <Text size="sm" c="dimmed" mt="lg">
        {t('domains.read_only')}
      </Text>
    </Card>
  );
}
