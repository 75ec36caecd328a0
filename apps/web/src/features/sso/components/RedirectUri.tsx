import { Code, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { CopyIconButton } from '../../../ui/CopyIconButton.tsx';

/** A provider's redirect URI, to copy into the identity provider's client settings. */
export function RedirectUri({ uri }: { uri: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="xs" fw={600}>
        {t('sso.redirect_uri')}
      </Text>
      <Group gap={4} wrap="nowrap" align="center">
        <Code
          style={{ overflowWrap: 'anywhere', whiteSpace: 'normal', minWidth: 0 }}
          data-testid="sso-redirect-uri"
        >
          {uri}
        </Code>
        <CopyIconButton value={uri} label={t('sso.copy_redirect_uri')} iconSize={15} />
      </Group>
    </Stack>
  );
}
