import { ErrorCodes, isAdmin, type PiiKind, type ProviderFailure } from '@assistente/contracts';
import { Alert, Anchor, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { formatDateTime } from '../../../ui/format.ts';
import { useLocalePath } from '../../../ui/hooks/useLocalePath.ts';
import { useAccountSession } from '../../auth/index.ts';
import { piiKindsText } from '../../pii/index.ts';
import { failureText } from '../../providers/index.ts';
import { isProviderCode, isTranslatedCode, showsServerDetail } from '../lib/errors.ts';

/** An error of the chat (an `error` frame or an answer that ended in error), in the user's language. */
export function ErrorNotice({
  code,
  message,
  reason,
  resetsAt,
  kinds,
  onClose,
  compact = false,
}: {
  code: string;
  message: string;
  /** A provider's failure: said in the reader's language instead of the server's English `message`. */
  reason?: ProviderFailure | undefined;
  /** When a budget that refused the send resets: said in the reader's language and time. */
  resetsAt?: string | undefined;
  /** What the organisation's PII filter found in a refused message: named in the reader's language. */
  kinds?: readonly PiiKind[] | undefined;
  onClose?: () => void;
  compact?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lp = useLocalePath();
  const { apiUser } = useAccountSession();
  const translated = isTranslatedCode(code);
  const apiCode = !translated && (ErrorCodes as readonly string[]).includes(code);
  const admin = apiUser ? isAdmin(apiUser) : false;
  // A provider's failure is told from its reason; its English line (older answers have no reason) never.
  const detail = reason ? failureText(t, reason, null) : isProviderCode(code) ? null : message;
  return (
    <Alert
      color={code === 'NO_PROVIDER' ? 'accent' : 'error'}
      variant="light"
      radius="md"
      icon={<IconAlertTriangle size={18} />}
      title={compact ? undefined : t('chats.errors.title')}
      withCloseButton={Boolean(onClose)}
      closeButtonLabel={t('popup.close')}
      onClose={onClose}
      role="alert"
      data-testid="chat-error"
      data-code={code}
    >
      <Text size="sm">
        {code === 'PII_BLOCKED' && kinds?.length
          ? t('pii.blocked', { kinds: piiKindsText(t, i18n.language, kinds) })
          : translated
            ? t(`chats.errors.${code}`)
            : apiCode
              ? t(`errors.codes.${code}`)
              : message}
      </Text>
      {resetsAt ? (
        <Text size="sm" mt={4} data-testid="chat-error-resets">
          {t('chats.errors.resets_at', {
            when: formatDateTime(resetsAt, i18n.language),
          })}
        </Text>
      ) : null}
      {(translated || apiCode) && showsServerDetail(code, admin) && detail ? (
        <Text size="xs" c="dimmed" mt={4} data-testid="chat-error-detail">
          {detail}
        </Text>
      ) : null}
      {code === 'NO_PROVIDER' && admin ? (
        <Anchor component={Link} to={lp('/settings?tab=providers')} size="sm" mt={6} display="inline-block">
          {t('chats.errors.configure_providers')}
        </Anchor>
      ) : null}
    </Alert>
  );
}
