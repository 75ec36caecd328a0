import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../lib/errors.ts';
import { toAppError } from './errors.ts';

describe('toAppError', () => {
  it('keeps an AppError as it is', () => {
    const e = new AppError('USER_NOT_FOUND', 'User not found');
    expect(toAppError(e)).toBe(e);
    expect(e.toBody()).toEqual({ error: { status: 404, code: 'USER_NOT_FOUND', message: 'User not found' } });
  });

  it('turns a zod failure into a 400 naming the field', () => {
    const r = z.strictObject({ displayName: z.string() }).safeParse({ displayName: 1, extra: true });
    const e = toAppError(r.error);
    expect(e.status).toBe(400);
    expect(e.code).toBe('VALIDATION_FAILED');
    expect(e.message).toContain('displayName');
    expect(Array.isArray(e.details)).toBe(true);
  });

  it('maps Fastify body errors to 400, 413 and 415', () => {
    expect(
      toAppError(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }))
        .status,
    ).toBe(400);
    expect(
      toAppError(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }))
        .status,
    ).toBe(413);
    expect(
      toAppError(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }))
        .status,
    ).toBe(415);
  });

  it('hides anything unexpected behind a generic 500', () => {
    const e = toAppError(new Error('relation "users" does not exist at character 15'));
    expect(e.status).toBe(500);
    expect(e.message).toBe('Internal server error');
  });
});
