import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ChatView } from './components/ChatView.tsx';

/**
 * What the home page hands over when its new-chat box is used: a message to send, or files to
 * attach with the text typed so far (a File survives history state: it is structured-cloneable).
 */
export interface NewChatState {
  message?: string;
  files?: File[];
  draft?: string;
}

function newChatStateOf(state: unknown): NewChatState {
  if (typeof state !== 'object' || state === null) return {};
  const { message, files, draft } = state as NewChatState;
  return {
    ...(typeof message === 'string' && message.trim() !== '' ? { message } : {}),
    ...(Array.isArray(files) && files.every((f) => f instanceof File) && files.length > 0 ? { files } : {}),
    ...(typeof draft === 'string' && draft !== '' ? { draft } : {}),
  };
}

/** `/chats`: a new chat (optionally with a santito, `?agent=`); the list is in the layout's sidebar. */
export default function ChatsPage() {
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const agentId = search.get('agent');
  const handed = newChatStateOf(location.state);
  // Sent (or attached) once: a reload or a back navigation must not do it again.
  const consumed = useCallback(() => {
    navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [navigate, location.pathname, location.search]);
  return (
    <ChatView
      key={agentId ?? 'new'}
      chatId={null}
      agentId={agentId}
      initialMessage={handed.message ?? null}
      initialFiles={handed.files ?? null}
      initialDraft={handed.draft ?? ''}
      onInitialMessageSent={consumed}
    />
  );
}
