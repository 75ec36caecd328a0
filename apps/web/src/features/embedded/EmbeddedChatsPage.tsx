import { IconMessages } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n/index.ts';
import { EmptyPanel } from '../../ui/EmptyPanel.tsx';
import { useEmbeddedSession } from '../auth/hooks/useEmbeddedSession.ts';

/** `/embedded/{virtualAccountId}/chats`: a visitor's chats, on the embedded session. */
export default function EmbeddedChatsPage() {
  const { t } = useTranslation();
  const session = useEmbeddedSession();
  return (
    <EmptyPanel
      icon={<IconMessages size={28} stroke={1.6} />}
      title={t('pages.embedded.empty_title')}
      description={t(session.idToken ? 'pages.embedded.empty_description' : 'pages.embedded.no_session')}
    />
  );
}
