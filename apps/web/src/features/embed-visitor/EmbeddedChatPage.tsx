import { useParams } from 'react-router';
import { EmbeddedChat } from './EmbeddedChat.tsx';

/** `/embedded/{virtualAccountId}/chats/{chatId}`: one of the visitor's chats. */
export default function EmbeddedChatPage() {
  const { virtualAccountId, chatId } = useParams();
  if (!virtualAccountId || !chatId) return null;
  return <EmbeddedChat virtualAccountId={virtualAccountId} chatId={chatId} />;
}
