import { useParams } from 'react-router';
import { ChatView } from './components/ChatView.tsx';

/** `/chats/{chatId}` (the id is validated by the route): one chat. */
export default function ChatPage() {
  const { chatId } = useParams();
  if (!chatId) return null;
  return <ChatView key={chatId} chatId={chatId} />;
}
