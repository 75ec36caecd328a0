import type { ApiKey } from '@assistente/contracts';
import { ActionIcon, Badge, Button, Code, Group, Text } from '@mantine/core';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { DataList } from '../../../ui/DataList.tsx';
import { formatDateTime, formatRelative } from '../../../ui/format.ts';
import { useConfirm } from '../../../ui/hooks/useConfirm.ts';
import { useIsMobile } from '../../../ui/hooks/useIsMobile.ts';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import type { ApiKeyScope } from '../api.ts';
import { useApiKeys, useRevokeApiKey } from '../hooks/useApiKeys.ts';

/** The keys of one scope, each revocable after a confirmation. */
export function ApiKeysList({ scope, emptyDescription }: { scope: ApiKeyScope; emptyDescription: string }) {
  const { t, i18n } = useTranslation();
  const popup = usePopup();
  const mobile = useIsMobile();
  const list = useApiKeys(scope);
  const rows = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  const revoke = useRevokeApiKey();
  const confirm = useConfirm<ApiKey>();
  const lang = i18n.language;

  const expiry = (key: ApiKey, size: 'xs' | 'sm' = 'sm') => {
    if (!key.expiresAt) return <Text size={size}>{t('apiKeys.never_expires')}</Text>;
    if (new Date(key.expiresAt).getTime() <= Date.now()) {
      return (
        <Badge color="error" variant="light" radius="sm">
          {t('apiKeys.expired')}
        </Badge>
      );
    }
    return <Text size={size}>{formatDateTime(key.expiresAt, lang)}</Text>;
  };
  const lastUsed = (key: ApiKey) =>
    key.lastUsedAt ? formatRelative(key.lastUsedAt, lang) : t('apiKeys.never_used');
  const prefix = (key: ApiKey) => <Code>{`${key.prefix}…`}</Code>;

  const pending = confirm.target;
  return (
    <>
      <DataList
        query={list}
        rows={rows}
        total={total}
        rowKey={(key) => key.id}
        columns={[
          {
            key: 'name',
            title: t('apiKeys.fields.name'),
            cell: (key) => (
              <Text fw={500} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {key.name}
              </Text>
            ),
          },
          { key: 'prefix', title: t('apiKeys.fields.prefix'), cell: prefix },
          ...(scope === 'domain'
            ? [
                {
                  key: 'owner',
                  title: t('apiKeys.fields.owner'),
                  cell: (key: ApiKey) => (
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {key.userId}
                    </Text>
                  ),
                },
              ]
            : []),
          {
            key: 'created',
            title: t('apiKeys.fields.created'),
            cell: (key) => <Text size="sm">{formatDateTime(key.createdAt, lang)}</Text>,
          },
          {
            key: 'last_used',
            title: t('apiKeys.fields.last_used'),
            cell: (key) => <Text size="sm">{lastUsed(key)}</Text>,
          },
          { key: 'expires', title: t('apiKeys.fields.expires'), cell: (key) => expiry(key) },
        ]}
        card={(key) => ({
          title: key.name,
          details: (
            <>
              <Group gap={6} mt={4}>
                {prefix(key)}
                {scope === 'domain' ? (
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {key.userId}
                  </Text>
                ) : null}
              </Group>
              <Text size="xs" c="dimmed" mt={4}>
                {t('apiKeys.fields.last_used')}: {lastUsed(key)}
              </Text>
            </>
          ),
          footer: (
            <Group gap={6}>
              <Text size="xs" c="dimmed">
                {t('apiKeys.fields.expires')}:
              </Text>
              {expiry(key, 'xs')}
            </Group>
          ),
        })}
        actions={(key) =>
          mobile ? (
            <ActionIcon
              variant="subtle"
              color="error"
              size="lg"
              aria-label={t('apiKeys.revoke_label', { name: key.name })}
              onClick={() => confirm.ask(key)}
            >
              <IconTrash size={18} />
            </ActionIcon>
          ) : (
            <Button
              size="xs"
              variant="subtle"
              color="error"
              leftSection={<IconTrash size={14} />}
              aria-label={t('apiKeys.revoke_label', { name: key.name })}
              onClick={() => confirm.ask(key)}
            >
              {t('apiKeys.revoke')}
            </Button>
          )
        }
        mobile={mobile}
        minWidth={720}
        testIds={{ table: `api-keys-${scope}-table`, cards: `api-keys-${scope}-cards`, row: 'api-key-row' }}
        loadFailedTitle={t('apiKeys.errors.load_failed')}
        filtered={false}
        noResults={{ title: t('apiKeys.empty_title'), description: emptyDescription }}
        empty={{
          icon: <IconKey size={28} stroke={1.6} />,
          title: t('apiKeys.empty_title'),
          description: emptyDescription,
        }}
      />
      <ConfirmDialog
        {...confirm.dialog(
          async (key) => {
            await revoke.mutateAsync(key.id);
            void popup.show({ status: 'success', title: t('apiKeys.revoked', { name: key.name }) });
          },
          (error) => apiErrorText(t, error),
        )}
        title={t('apiKeys.confirm.title')}
        message={pending ? t('apiKeys.confirm.message', { name: pending.name }) : ''}
        confirmLabel={t('apiKeys.confirm.confirm')}
        cancelLabel={t('common.cancel')}
        loading={revoke.isPending}
      />
    </>
  );
}
