import { z } from 'zod';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from './emailAddress.ts';

/** An e-mail address field (issues carry `format: "email"`, as `z.email()` does). */
export const EmailSchema = z.email({ pattern: EMAIL_PATTERN }).max(MAX_EMAIL_LENGTH);
