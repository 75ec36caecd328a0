import { AppError, invalidField } from '../../lib/errors.ts';

/** The same answer for "missing", "deleted" and "not yours": existence is never revealed. */
export const chatNotFound = () => new AppError('NOT_FOUND', 'Chat not found');
export const messageNotFound = () => new AppError('NOT_FOUND', 'Message not found');
export const attachmentNotFound = () => new AppError('NOT_FOUND', 'Attachment not found');

/** An attachment already sent stays with the chat's history: only unsent drafts are deleted. */
export const attachmentSent = () =>
  new AppError('CONFLICT', 'This file belongs to a sent message and stays with the chat');
/** A reply's `parentId` that is not a message of this chat (the same answer whatever the reason). */
export const noSuchParent = () => invalidField('parentId', 'No such message in this chat');

// ---- Chat import (docs/ARCHITECTURE.md#chat-import): `details.reason` (and `limit`) let the web say it in its words. ----

/** Which bound of ChatImportLimits a file passed. */
export type ImportLimit = 'upload' | 'entries' | 'uncompressed' | 'ratio' | 'json' | 'conversations';

/** A file past one of the import's limits: nothing of it is imported. */
export const importTooLarge = (limit: ImportLimit, max: number, message: string) =>
  new AppError('PAYLOAD_TOO_LARGE', `${message}; nothing was imported`, { reason: 'limit', limit, max });
export const importUnsupportedFile = () =>
  new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    'Send a ChatGPT or Claude export: the .zip file as downloaded, or the conversations.json inside it',
    { reason: 'unsupported_file' },
  );
export const importNotAnExport = (what: string) =>
  new AppError(
    'BAD_REQUEST',
    `${what} is not a ChatGPT or Claude export: expected conversations.json (or conversations-000.json, …), an array of conversations`,
    { reason: 'not_export' },
  );
export const importNoConversations = () =>
  new AppError('BAD_REQUEST', 'The export has no conversations; nothing was imported', {
    reason: 'no_conversations',
  });
export const importBadJson = (document: string, why: string) =>
  new AppError('BAD_REQUEST', `${document} is not valid JSON (${why}); nothing was imported`, {
    reason: 'bad_json',
  });
export const importBadZip = (why: string) =>
  new AppError('BAD_REQUEST', `The ZIP file cannot be read (${why}); nothing was imported`, {
    reason: 'bad_zip',
  });
/** One import per person at a time: a second one would only find the first one's chats half done. */
export const importRunning = () =>
  new AppError('CONFLICT', 'An import of yours is already running; wait for its report', {
    reason: 'running',
  });
