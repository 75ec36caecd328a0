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
