import { Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { useSharingSettings, useUpdateSharingSettings } from '../hooks/useShares.ts';

/**
 * Settings → Domain (Admins): whether chats may be shared with anyone who has the link. Turning it
 * off takes effect at once: public links then open only for the organisation's people.
 */
export function PublicLinksSetting({ domain }: { domain: string }) {
  const { t } = useTranslation();
  const popup = usePopup();
  const settings = useSharingSettings(domain);
  const update = useUpdateSharingSettings();
  const checked = settings.data?.publicLinks ?? false;

  const change = async (publicLinks: boolean) => {
    try {
      await update.mutateAsync({ domain, body: { publicLinks } });
      void popup.show({
        status: 'success',
        title: t(publicLinks ? 'shares.settings.allowed' : 'shares.settings.stopped'),
      });
    } catch (error) {
      void popup.show({
        status: 'error',
        title: t('shares.settings.failed'),
        description: apiErrorText(t, error),
      });
    }
  };

  return (
    <Stack gap={4}>
      <Switch
        label={t('shares.settings.public_links')}
        description={t('shares.settings.public_links_hint')}
        checked={checked}
        disabled={settings.isPending || settings.isError || update.isPending}
        onChange={(e) => void change(e.currentTarget.checked)}
        data-testid="public-links-switch"
      />
      {settings.isError ? (
        <Text size="xs" c="error.7" role="alert">
          {t('shares.settings.load_failed')}
        </Text>
      ) : null}
    </Stack>
  );
}
