import type { Share, ShareAudience } from '@assistente/contracts';
import {
  Alert,
  Button,
  CopyButton,
  Group,
  Modal,
  NativeSelect,
  Radio,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconInfoCircle } from '@tabler/icons-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorCode, apiErrorText } from '../../../ui/apiError.ts';
import { useCreateShare, useShareOptions } from '../hooks/useShares.ts';

/** Expiry choices, in days; '' never expires. */
export const SHARE_EXPIRY_DAYS = ['', '1', '7', '30'] as const;
const DAY_MS = 86_400_000;

export interface ShareDialogProps {
  opened: boolean;
  onClose: () => void;
  chatId: string;
  /** The last message of the branch on screen: the link shows that branch. */
  leaf: string | null;
}

/**
 * "Compartilhar": who may open the link (the organisation, the department, or anyone where an
 * Admin allows public links) and until when; once made, the link to copy.
 */
export function ShareDialog({ opened, onClose, chatId, leaf }: ShareDialogProps) {
  const { t } = useTranslation();
  const options = useShareOptions(opened);
  const create = useCreateShare();
  const [audience, setAudience] = useState<ShareAudience>('domain');
  const [days, setDays] = useState<string>('');
  const [made, setMade] = useState<Share | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const publicAllowed = options.data?.publicLinks === true;
  const copyButton = useRef<HTMLButtonElement>(null);

  // The link is what the person came for: the keyboard lands on its Copy button.
  useEffect(() => {
    if (made) copyButton.current?.focus();
  }, [made]);

  useEffect(() => {
    if (!opened) return;
    setAudience('domain');
    setDays('');
    setMade(null);
    setFailure(null);
  }, [opened]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const n = Number(days);
    try {
      setMade(
        await create.mutateAsync({
          chatId,
          body: {
            audience,
            ...(n > 0 ? { expiresAt: new Date(Date.now() + n * DAY_MS).toISOString() } : {}),
            ...(leaf ? { leaf } : {}),
          },
        }),
      );
    } catch (error) {
      setFailure(
        apiErrorCode(error) === 'CONFLICT' ? t('shares.dialog.nothing_to_share') : apiErrorText(t, error),
      );
    }
  };

  const close = () => {
    if (!create.isPending) onClose();
  };

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('popup.close') }}
      opened={opened}
      onClose={close}
      title={t('shares.dialog.title')}
      centered
      radius="lg"
    >
      {made ? (
        <Stack gap="md" data-testid="share-created">
          <Text size="sm">{t(`shares.dialog.created.${made.audience}`)}</Text>
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <TextInput
              label={t('shares.dialog.link')}
              value={made.url}
              readOnly
              onFocus={(e) => e.currentTarget.select()}
              style={{ flex: 1, minWidth: 0 }}
              data-testid="share-url"
            />
            <CopyButton value={made.url} timeout={2000}>
              {({ copied, copy }) => (
                <Button
                  ref={copyButton}
                  onClick={copy}
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  data-testid="share-copy"
                >
                  {copied ? t('shares.dialog.copied') : t('shares.dialog.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Alert variant="light" color="accent" icon={<IconInfoCircle size={18} />}>
            {t('shares.dialog.snapshot_note')}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('shares.dialog.done')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <Stack gap="md">
            <Radio.Group
              label={t('shares.dialog.audience')}
              value={audience}
              onChange={(value) => setAudience(value as ShareAudience)}
            >
              <Stack gap="sm" mt="xs">
                <Radio
                  value="domain"
                  label={t('shares.audience.domain')}
                  description={t('shares.dialog.domain_hint')}
                  data-testid="share-audience-domain"
                />
                <Radio
                  value="department"
                  label={t('shares.audience.department')}
                  description={t('shares.dialog.department_hint')}
                  data-testid="share-audience-department"
                />
                <Radio
                  value="public"
                  label={t('shares.audience.public')}
                  description={
                    publicAllowed ? t('shares.dialog.public_hint') : t('shares.dialog.public_disabled')
                  }
                  disabled={!publicAllowed}
                  data-testid="share-audience-public"
                />
              </Stack>
            </Radio.Group>
            <NativeSelect
              label={t('shares.dialog.expiry')}
              value={days}
              onChange={(e) => setDays(e.currentTarget.value)}
              data-testid="share-expiry"
              data={SHARE_EXPIRY_DAYS.map((d) => ({
                value: d,
                label: t(`shares.dialog.expiry_option.${d || 'never'}`),
              }))}
            />
            <Text size="xs" c="dimmed">
              {t('shares.dialog.snapshot_note')}
            </Text>
            {failure ? (
              <Alert color="error" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
                {failure}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={create.isPending}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={create.isPending} data-testid="share-create">
                {t('shares.dialog.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
