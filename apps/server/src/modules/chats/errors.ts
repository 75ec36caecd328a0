import { AppError } from '../../lib/errors.ts';

/** The same answer for "missing", "deleted" and "not yours": existence is never revealed. */
export const chatNotFound = () => new AppError('NOT_FOUND', 'Chat not found');
export const messageNotFound = () => new AppError('NOT_FOUND', 'Message not found');
export const attachmentNotFound = () => new AppError('NOT_FOUND', 'Attachment not found');
