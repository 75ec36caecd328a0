import type { ResponseSchema } from './client.ts';

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
