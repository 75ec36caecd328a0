import type { ResponseSchema } from './client.ts';
import { ResponseValidationError } from './errors.ts';

/** What an openapi-fetch call resolves to once the client's middleware let it through (a 2xx). */
export interface Answer {
  data?: unknown;
  response: Response;
}

/** The answer's body checked with the contract's schema: the server's types are not taken on trust. */
export async function parsed<T>(schema: ResponseSchema<T>, call: Promise<Answer>): Promise<T> {
  const { data, response } = await call;
  try {
    return schema.parse(data);
  } catch (cause) {
    throw new ResponseValidationError(response.url.split('?')[0] ?? response.url, cause);
  }
}

/**
 * The answer's body taken as the contract's type, only checked to be a JSON object or array. For
 * what the chats and the embedded chat load before their first message: their JavaScript budget
 * has no room for the schema library, and the server checks every answer against the same schemas
 * in its tests (docs/ARCHITECTURE.md#calling-the-api).
 */
export function typed<T extends object>(): ResponseSchema<T> {
  return JSON_BODY as ResponseSchema<T>;
}
const JSON_BODY: ResponseSchema<object> = {
  parse(data) {
    if (typeof data !== 'object' || data === null) throw new TypeError('Expected a JSON object or array');
    return data;
  },
};

/** Waits for a call whose answer has no body worth reading (204, a deletion). */
export async function done(call: Promise<Answer>): Promise<void> {
  await call;
}

/** A JSON array whose items each pass `item`. */
export function arrayOf<T>(item: ResponseSchema<T>): ResponseSchema<T[]> {
  return {
    parse(data) {
      if (!Array.isArray(data)) throw new TypeError('Expected a JSON array');
      return data.map((entry) => item.parse(entry));
    },
  };
}

/** `null` for an empty answer (no body, `null`), else `item`. */
export function nullable<T>(item: ResponseSchema<T>): ResponseSchema<T | null> {
  return { parse: (data) => (data === undefined || data === null || data === '' ? null : item.parse(data)) };
}
