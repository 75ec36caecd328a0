import { useParams } from 'react-router';
import { EmbeddedChat } from './EmbeddedChat.tsx';

/** `/embedded/{virtualAccountId}/chats`: a new chat with the embed's santito. */
export default function EmbeddedChatsPage() {
  const { virtualAccountId } = useParams();
  if (!virtualAccountId) return null;
  return <EmbeddedChat virtualAccountId={virtualAccountId} chatId={null} />;
}
