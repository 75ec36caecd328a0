import type { SsoProvider } from '@assistente/contracts';
import { Badge, Button, Stack, Text } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { useConfirm } from '../../../ui/hooks/useConfirm.ts';
import { IconAction } from '../../../ui/IconAction.tsx';
import { ItemCard } from '../../../ui/ItemCard.tsx';
import { SettingsSection } from '../../../ui/SettingsSection.tsx';
import { useDeleteSsoProvider, useSsoProviders } from '../hooks/useSso.ts';
import { RedirectUri } from './RedirectUri.tsx';
import { SsoProviderForm } from './SsoProviderForm.tsx';

function ProviderCard({
  provider,
  onEdit,
  onDelete,
}: {
  provider: SsoProvider;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const fromEnv = provider.source === 'instance';
  return (
    <ItemCard
      testId="sso-provider-row"
      title={provider.displayName}
      badges={
        <>
          <Badge variant="light" size="sm">
            {t(`sso.kinds.${provider.kind}`)}
          </Badge>
          {fromEnv ? (
            <Badge variant="light" color="neutral" size="sm">
              {t('sso.from_env')}
            </Badge>
          ) : null}
          {!provider.enabled ? (
            <Badge variant="light" color="neutral" size="sm">
              {t('sso.disabled')}
            </Badge>
          ) : null}
        </>
      }
      actions={
        fromEnv ? null : (
          <>
            <IconAction label={t('common.edit')} icon={<IconPencil size={16} />} onClick={onEdit} />
            <IconAction label={t('common.delete')} icon={<IconTrash size={16} />} onClick={onDelete} danger />
          </>
        )
      }
      details={provider.issuer}
    >
      <Text size="sm">
        {t('sso.domains', { domains: provider.domains.join(', ') || '—' })}
        {' · '}
        {provider.autoProvision
          ? t('sso.creates_accounts', { role: t(`roles.${provider.defaultRole}`) })
          : t('sso.existing_only')}
      </Text>
      <RedirectUri uri={provider.redirectUri} />
    </ItemCard>
  );
}

/** `/integration` → Single sign-on (SuperAdmin): the identity providers people may sign in with. */
export function SsoSettings() {
  const { t } = useTranslation();
  const providers = useSsoProviders();
  const remove = useDeleteSsoProvider();
  const confirm = useConfirm<SsoProvider>();
  const [editing, setEditing] = useState<{ provider: SsoProvider | null } | null>(null);

  return (
    <Stack gap="lg" data-testid="sso-settings">
      <SettingsSection
        title={t('sso.title')}
        description={t('sso.description')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ provider: null })}>
            {t('sso.add')}
          </Button>
        }
        query={providers}
        empty={t('sso.empty')}
      >
        {(items) => (
          <Stack gap="sm">
            {items.map((provider) => (
              <ProviderCard
                key={provider.id}
                provider={provider}
                onEdit={() => setEditing({ provider })}
                onDelete={() => confirm.ask(provider)}
              />
            ))}
          </Stack>
        )}
      </SettingsSection>

      {editing ? (
        <SsoProviderForm
          key={editing.provider?.id ?? 'new'}
          opened
          provider={editing.provider}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        {...confirm.dialog(
          (target) => remove.mutateAsync(target.id),
          (error) => apiErrorText(t, error),
        )}
        title={t('sso.delete_title')}
        message={t('sso.delete_confirm', { name: confirm.target?.displayName ?? '' })}
        confirmLabel={t('common.delete')}
        cancelLabel={t('common.cancel')}
        danger
        loading={remove.isPending}
      />
    </Stack>
  );
}
