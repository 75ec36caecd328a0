import { AppError, notFound } from '../../lib/errors.ts';

/** Uploads go to a files source; the others fetch their documents themselves. */
export const notAFilesSource = () => new AppError('BAD_REQUEST', 'Only a files source takes uploads');
export const sourceNotFound = () => notFound('Knowledge source not found');
export const documentNotFound = () => notFound('Document not found');
