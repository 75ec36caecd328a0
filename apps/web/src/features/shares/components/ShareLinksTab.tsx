import type { Share } from '@assistente/contracts';
import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCopy, IconExternalLink, IconLink, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { DataList, RowActions } from '../../../ui/DataList.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { useConfirm } from '../../../ui/hooks/useConfirm.ts';
import { useIsMobile } from '../../../ui/hooks/useIsMobile.ts';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { useRevokeShare, useShareList } from '../hooks/useShares.ts';

/** Whether a link's expiry has passed (it then answers nobody). */
const expired = (share: Share, now = Date.now()) =>
  share.expiresAt !== null && new Date(share.expiresAt).getTime() <= now;

/** `/settings` → "Links compartilhados": the person's own links, each to open, copy or revoke. */
export function ShareLinksTab() {
  const { t, i18n } = useTranslation();
  const popup = usePopup();
  const mobile = useIsMobile();
  const list = useShareList();
  const rows = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  const revoke = useRevokeShare();
  const confirm = useConfirm<Share>();
  const lang = i18n.language;

  const title = (share: Share) => share.title || t('shares.untitled');
  // `size`: the table's cell reads as its column; the card's footer as its small, dimmed line.
  const expiry = (share: Share, size: 'sm' | 'xs' = 'sm') =>
    expired(share) ? (
      <Badge color="error" variant="light" radius="sm">
        {t('shares.list.expired')}
      </Badge>
    ) : (
      <Text size={size} c={size === 'xs' ? 'dimmed' : undefined}>
        {share.expiresAt ? formatDateTime(share.expiresAt, lang) : t('shares.list.never')}
      </Text>
    );
  const audience = (share: Share) => (
    <Badge variant="light" radius="sm" color={share.audience === 'public' ? 'orange' : 'accent'}>
      {t(`shares.audience.${share.audience}`)}
    </Badge>
  );
  const copy = async (share: Share) => {
    try {
      await navigator.clipboard.writeText(share.url);
      void popup.show({ status: 'success', title: t('shares.list.copied') });
    } catch {
      void popup.show({ status: 'error', title: t('shares.list.copy_failed'), description: share.url });
    }
  };

  const pending = confirm.target;
  return (
    <Card withBorder radius="lg" padding="lg">
      <Stack gap={4} mb="md">
        <Title order={2} size="h4">
          {t('shares.list.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('shares.list.description')}
        </Text>
      </Stack>
      <DataList
        query={list}
        rows={rows}
        total={total}
        rowKey={(share) => share.shareId}
        columns={[
          {
            key: 'title',
            title: t('shares.list.fields.title'),
            cell: (share) => (
              <Anchor
                href={share.url}
                target="_blank"
                rel="noopener"
                size="sm"
                fw={500}
                style={{ overflowWrap: 'anywhere' }}
              >
                {title(share)}
              </Anchor>
            ),
          },
          { key: 'audience', title: t('shares.list.fields.audience'), cell: audience },
          {
            key: 'created',
            title: t('shares.list.fields.created'),
            cell: (share) => <Text size="sm">{formatDateTime(share.createdAt, lang)}</Text>,
          },
          { key: 'expires', title: t('shares.list.fields.expires'), cell: (share) => expiry(share) },
          {
            key: 'views',
            title: t('shares.list.fields.views'),
            cell: (share) => (
              <Text size="sm" data-testid="share-views">
                {share.views}
              </Text>
            ),
          },
        ]}
        card={(share) => ({
          title: title(share),
          details: (
            <Group gap={6} mt={4}>
              {audience(share)}
              <Text size="xs" c="dimmed">
                {formatDateTime(share.createdAt, lang)}
              </Text>
            </Group>
          ),
          footer: (
            <Group gap="md">
              <Text size="xs" c="dimmed" data-testid="share-views">
                {t('shares.list.views', { count: String(share.views) })}
              </Text>
              <Group gap={6}>
                <Text size="xs" c="dimmed">
                  {t('shares.list.fields.expires')}:
                </Text>
                {expiry(share, 'xs')}
              </Group>
            </Group>
          ),
        })}
        actions={(share) => (
          <RowActions
            label={t('shares.list.actions', { title: title(share) })}
            actions={[
              {
                key: 'open',
                label: t('shares.list.open'),
                icon: <IconExternalLink size={16} />,
                onClick: () => window.open(share.url, '_blank', 'noopener'),
              },
              {
                key: 'copy',
                label: t('shares.list.copy'),
                icon: <IconCopy size={16} />,
                onClick: () => void copy(share),
              },
              {
                key: 'revoke',
                label: t('shares.list.revoke'),
                icon: <IconTrash size={16} />,
                onClick: () => confirm.ask(share),
                danger: true,
              },
            ]}
          />
        )}
        mobile={mobile}
        minWidth={720}
        testIds={{ table: 'shares-table', cards: 'shares-cards', row: 'share-row' }}
        loadFailedTitle={t('shares.list.load_failed')}
        filtered={false}
        noResults={{ title: t('shares.list.empty_title'), description: t('shares.list.empty_description') }}
        empty={{
          icon: <IconLink size={28} stroke={1.6} />,
          title: t('shares.list.empty_title'),
          description: t('shares.list.empty_description'),
        }}
      />
      <ConfirmDialog
        {...confirm.dialog(
          async (share) => {
            await revoke.mutateAsync(share.shareId);
            void popup.show({ status: 'success', title: t('shares.list.revoked') });
          },
          (error) => apiErrorText(t, error),
        )}
        title={t('shares.list.confirm_title')}
        message={pending ? t('shares.list.confirm_message', { title: title(pending) }) : ''}
        confirmLabel={t('shares.list.revoke')}
        cancelLabel={t('common.cancel')}
        loading={revoke.isPending}
      />
    </Card>
  );
}
