import type { Domain } from '@assistente/contracts';
import { Badge, Group } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';

/** Status, premium and trusted, as badges. */
export function DomainBadges({ domain }: { domain: Domain }) {
  const { t } = useTranslation();
  return (
    <Group gap={6}>
      <Badge variant="light" color={domain.active ? 'green' : 'neutral'} radius="sm">
        {t(domain.active ? 'common.active' : 'common.inactive')}
      </Badge>
      {domain.premium ? (
        <Badge variant="outline" color="accent.8" radius="sm">
          {t('domains.fields.premium')}
        </Badge>
      ) : null}
      {domain.isTrusted ? (
        <Badge variant="outline" color="secondary.8" radius="sm">
          {t('domains.trusted_badge')}
        </Badge>
      ) : null}
    </Group>
  );
}
