import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ChatView } from './components/ChatView.tsx';

/** What the home page hands over when its new-chat box is used. */
export interface NewChatState {
  message?: string;
}

function initialMessageOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('message' in state)) return null;
  const message = (state as NewChatState).message;
  return typeof message === 'string' && message.trim() !== '' ? message : null;
}

/** `/chats`: a new chat (optionally with a santito, `?agent=`); the list is in the layout's sidebar. */
export default function ChatsPage() {
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const agentId = search.get('agent');
  const initialMessage = initialMessageOf(location.state);
  // Sent once: a reload or a back navigation must not send it again.
  const consumed = useCallback(() => {
    navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [navigate, location.pathname, location.search]);
  return (
    <ChatView
      key={agentId ?? 'new'}
      chatId={null}
      agentId={agentId}
      initialMessage={initialMessage}
      onInitialMessageSent={consumed}
    />
  );
}
