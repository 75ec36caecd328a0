import { ErrorCodes, isAdmin } from '@assistente/contracts';
import { Alert, Anchor, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useLocalePath } from '../../../ui/hooks/useLocalePath.ts';
import { useAccountSession } from '../../auth/index.ts';
import { isTranslatedCode, showsServerDetail } from '../lib/errors.ts';

/** An error of the chat (an `error` frame or an answer that ended in error), in the user's language. */
export function ErrorNotice({
  code,
  message,
  onClose,
  compact = false,
}: {
  code: string;
  message: string;
  onClose?: () => void;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const { apiUser } = useAccountSession();
  const translated = isTranslatedCode(code);
  const apiCode = !translated && (ErrorCodes as readonly string[]).includes(code);
  const admin = apiUser ? isAdmin(apiUser) : false;
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
        {translated ? t(`chats.errors.${code}`) : apiCode ? t(`errors.codes.${code}`) : message}
      </Text>
      {(translated || apiCode) && showsServerDetail(code, admin) && message ? (
        <Text size="xs" c="dimmed" mt={4}>
          {message}
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
