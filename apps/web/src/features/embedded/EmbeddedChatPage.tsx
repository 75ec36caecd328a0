import { IconMessageCircle } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n/index.ts';
import { EmptyPanel } from '../../ui/EmptyPanel.tsx';
import { useEmbeddedSession } from '../auth/hooks/useEmbeddedSession.ts';

/** `/embedded/{virtualAccountId}/chats/{chatId}`: one chat, on the embedded session. */
export default function EmbeddedChatPage() {
  const { t } = useTranslation();
  const session = useEmbeddedSession();
  return (
    <EmptyPanel
      icon={<IconMessageCircle size={28} stroke={1.6} />}
      title={t('pages.chat.empty_title')}
      description={t(session.idToken ? 'pages.chat.empty_description' : 'pages.embedded.no_session')}
    />
  );
}
