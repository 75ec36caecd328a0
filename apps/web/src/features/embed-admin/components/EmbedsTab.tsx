import type { VirtualAccount, VirtualAccountWithSecret } from '@assistente/contracts';
import { Alert, Badge, Button, Card, Code, ColorSwatch, Group, Modal, Stack, Text } from '@mantine/core';
import {
  IconKey,
  IconMessageChatbot,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { CopyIconButton } from '../../../ui/CopyIconButton.tsx';
import { EmptyPanel } from '../../../ui/EmptyPanel.tsx';
import { useConfirm } from '../../../ui/hooks/useConfirm.ts';
import { IconAction } from '../../../ui/IconAction.tsx';
import { SettingsSection } from '../../../ui/SettingsSection.tsx';
import { authServices } from '../../auth/index.ts';
import { useDeleteEmbed, useEmbeds, useRotateEmbedSecret, useUpdateEmbed } from '../hooks/useEmbeds.ts';
import { EmbedDialog } from './EmbedDialog.tsx';

/** The one line a site pastes: the app's own address, whatever page the Admin opened it from. */
function snippetOf(id: string): string {
  const base = authServices().config.appUrl.replace(/\/+$/, '');
  return `<script src="${base}/embed.js" data-virtual-account="${id}" async></script>`;
}

function Snippet({ id }: { id: string }) {
  const { t } = useTranslation();
  const snippet = snippetOf(id);
  return (
    <Group gap={4} wrap="nowrap" align="flex-start">
      <Code
        block
        style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        data-testid="embed-snippet"
      >
        {snippet}
      </Code>
      <CopyIconButton value={snippet} label={t('embeds.copy_snippet')} iconSize={16} />
    </Group>
  );
}

function EmbedRow({
  embed,
  onEdit,
  onDelete,
  onRotate,
}: {
  embed: VirtualAccount;
  onEdit: () => void;
  onDelete: () => void;
  onRotate: () => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateEmbed();
  const pause = () => update.mutate({ id: embed.virtualAccountId, body: { active: !embed.active } });
  return (
    <Card withBorder radius="md" padding="md" data-testid="embed-row">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
            <ColorSwatch color={embed.color} size={16} />
            <Text fw={600}>{embed.displayName}</Text>
            <Badge variant="light" size="sm" color={embed.active ? 'secondary' : 'neutral'}>
              {t(embed.active ? 'embeds.active' : 'embeds.paused')}
            </Badge>
            <Badge variant="light" size="sm">
              {t(`embeds.identity.${embed.identity}`)}
            </Badge>
          </Group>
          <Group gap={4} wrap="nowrap">
            <IconAction
              label={t(embed.active ? 'embeds.pause' : 'embeds.resume')}
              icon={embed.active ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
              onClick={pause}
              loading={update.isPending}
            />
            <IconAction label={t('embeds.rotate')} icon={<IconKey size={16} />} onClick={onRotate} />
            <IconAction label={t('embeds.edit')} icon={<IconPencil size={16} />} onClick={onEdit} />
            <IconAction label={t('embeds.delete')} icon={<IconTrash size={16} />} onClick={onDelete} danger />
          </Group>
        </Group>
        <Text size="sm" c="dimmed" data-testid="embed-stats">
          {t('embeds.stats', {
            visitors: String(embed.stats.visitors),
            chats: String(embed.stats.chats),
            messages: String(embed.stats.messages),
          })}
        </Text>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {embed.allowedOrigins.length
            ? t('embeds.sites', { sites: embed.allowedOrigins.join(', ') })
            : t('embeds.no_sites')}
        </Text>
        <Snippet id={embed.virtualAccountId} />
        {update.isError ? (
          <Text size="sm" c="error.7" role="alert">
            {errorMessage(update.error, t('http.fallback_error'))}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/** The signing secret, once: after creating an embed or rotating its secret. */
function SecretDialog({ shown, onClose }: { shown: VirtualAccountWithSecret | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={shown !== null}
      onClose={onClose}
      title={t('embeds.secret_title')}
      centered
      radius="lg"
      size="lg"
      closeButtonProps={{ 'aria-label': t('popup.close') }}
    >
      {shown ? (
        <Stack gap="sm">
          <Alert color="accent" variant="light">
            {t('embeds.secret_once')}
          </Alert>
          <Group gap={4} wrap="nowrap">
            <Code
              block
              style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
              data-testid="embed-secret"
            >
              {shown.secret}
            </Code>
            <CopyIconButton value={shown.secret} label={t('embeds.copy_secret')} iconSize={16} />
          </Group>
          <Text size="sm">{t('embeds.snippet_intro')}</Text>
          <Snippet id={shown.virtualAccountId} />
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('embeds.done')}</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

/** `/integration` → Embeds: a domain's virtual accounts (docs/ARCHITECTURE.md#embedded-chat), for its Admins. */
export function EmbedsTab() {
  const { t } = useTranslation();
  const embeds = useEmbeds();
  const remove = useDeleteEmbed();
  const rotate = useRotateEmbedSecret();
  const deleting = useConfirm<VirtualAccount>();
  const rotating = useConfirm<VirtualAccount>();
  const [editing, setEditing] = useState<{ embed: VirtualAccount | null } | null>(null);
  const [secret, setSecret] = useState<VirtualAccountWithSecret | null>(null);
  const failed = (error: unknown) => errorMessage(error, t('http.fallback_error'));
  const create = () => setEditing({ embed: null });

  return (
    <Stack gap="lg" data-testid="embeds-tab">
      <SettingsSection
        title={t('embeds.title')}
        description={t('embeds.description')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={create}>
            {t('embeds.add')}
          </Button>
        }
        query={embeds}
        empty={
          <EmptyPanel
            icon={<IconMessageChatbot size={28} stroke={1.6} />}
            title={t('embeds.empty_title')}
            description={t('embeds.empty_description')}
          >
            <Button variant="light" leftSection={<IconPlus size={16} />} onClick={create}>
              {t('embeds.empty_action')}
            </Button>
          </EmptyPanel>
        }
      >
        {(items) => (
          <Stack gap="sm">
            {items.map((embed) => (
              <EmbedRow
                key={embed.virtualAccountId}
                embed={embed}
                onEdit={() => setEditing({ embed })}
                onDelete={() => deleting.ask(embed)}
                onRotate={() => rotating.ask(embed)}
              />
            ))}
          </Stack>
        )}
      </SettingsSection>

      <EmbedDialog
        opened={editing !== null}
        embed={editing?.embed ?? null}
        onClose={() => setEditing(null)}
        onCreated={(created) => {
          setEditing(null);
          setSecret(created);
        }}
      />
      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
      <ConfirmDialog
        opened={deleting.target !== null}
        title={t('embeds.delete_title')}
        message={t('embeds.delete_confirm', { name: deleting.target?.displayName ?? '' })}
        confirmLabel={t('embeds.delete')}
        cancelLabel={t('common.cancel')}
        loading={remove.isPending}
        error={deleting.error}
        onConfirm={() => void deleting.run((e) => remove.mutateAsync(e.virtualAccountId), failed)}
        onClose={deleting.close}
      />
      <ConfirmDialog
        opened={rotating.target !== null}
        title={t('embeds.rotate_title')}
        message={t('embeds.rotate_confirm', { name: rotating.target?.displayName ?? '' })}
        confirmLabel={t('embeds.rotate')}
        cancelLabel={t('common.cancel')}
        loading={rotate.isPending}
        error={rotating.error}
        onConfirm={() =>
          void rotating.run(async (e) => setSecret(await rotate.mutateAsync(e.virtualAccountId)), failed)
        }
        onClose={rotating.close}
      />
    </Stack>
  );
}
