import { randomBytes } from 'node:crypto';

export const newSourceId = () => `ks${randomBytes(8).toString('hex')}`;
export const newDocumentId = () => `kd${randomBytes(8).toString('hex')}`;
