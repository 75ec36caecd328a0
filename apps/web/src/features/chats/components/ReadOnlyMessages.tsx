import type { Attachment, Message } from '@assistente/contracts';
import { type ComponentType, createContext } from 'react';
import { FilePathContext } from './AttachmentChips.tsx';
import { type MessageActions, MessageItem } from './MessageItem.tsx';
import classes from './MessageList.module.css';

/** Nothing to do: a read-only message offers no action that would call one. */
const NO_ACTIONS: MessageActions = {
  regenerate: () => {},
  edit: () => {},
  selectSibling: () => {},
  approveTool: () => {},
};

/** Files read from the address each carries (a shared chat's go through its link). */
const ownUrl = (a: Attachment) => a.url;

/**
 * One branch of a chat, shown as the chat shows it (Markdown, citations, files, tool steps) but
 * read-only: a shared chat's page (docs/ARCHITECTURE.md#share-links).
 */
export function ReadOnlyMessages({ messages }: { messages: readonly Message[] }) {
  return (
    <FilePathContext.Provider value={ownUrl}>
      <div className={classes.content} data-testid="message-list">
        {messages.map((message) => (
          <MessageItem
            key={message.messageId}
            message={message}
            actions={NO_ACTIONS}
            busy={false}
            canAct={false}
            hideUsage
            readOnly
          />
        ))}
      </div>
    </FilePathContext.Provider>
  );
}

/** What the chat header's "Share" opens, for the chat on screen and the branch it shows. */
export interface ChatShareDialogProps {
  opened: boolean;
  onClose: () => void;
  chatId: string;
  leaf: string | null;
}

/**
 * The share dialog, given by the layout around the chat pages (the shares feature builds on this
 * one, so this one cannot import it); without it the header offers no "Share".
 */
export const ChatShareContext = createContext<ComponentType<ChatShareDialogProps> | null>(null);
