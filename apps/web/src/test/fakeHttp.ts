import type { Mock } from 'vitest';
import type { HttpClient, RequestOptions } from '../lib/http/client.ts';
import { HttpError, type HttpMethod } from '../lib/http/errors.ts';

/** What a fake route answers: a body (and paging headers), or an error status with the services' error body. */
export type FakeAnswer =
  | { body?: unknown; headers?: Record<string, string | undefined> }
  | { status: number; code: string; message: string; details?: unknown };

export type FakeRoute = (options: RequestOptions<unknown>) => FakeAnswer | Promise<FakeAnswer>;

type MockedClient = { [K in 'get' | 'post' | 'put' | 'patch' | 'delete']: Mock };

/**
 * Answers a fake `HttpClient`'s calls by `"METHOD /path"` (no query): parsed with the call's schema,
 * paging headers handed to `onResponse`, errors thrown as `HttpError`. Unknown routes fail the test.
 */
export function routeHttp(http: HttpClient, routes: Record<string, FakeRoute>): void {
  const client = http as unknown as MockedClient;
  const methods: [keyof MockedClient, HttpMethod][] = [
    ['get', 'GET'],
    ['post', 'POST'],
    ['put', 'PUT'],
    ['patch', 'PATCH'],
    ['delete', 'DELETE'],
  ];
  for (const [name, method] of methods) {
    client[name].mockImplementation(async (path: string, options: RequestOptions<unknown> = {}) => {
      const route = routes[`${method} ${path}`];
      if (!route) throw new Error(`No fake route for ${method} ${path}`);
      const answer = await route(options);
      if ('status' in answer) {
        throw new HttpError({
          url: path,
          method,
          status: answer.status,
          data: {
            error: {
              status: answer.status,
              code: answer.code,
              message: answer.message,
              details: answer.details,
            },
          },
        });
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers ?? {}))
        if (value !== undefined) headers.set(name, value);
      options.onResponse?.({ status: 200, headers });
      return options.schema ? options.schema.parse(answer.body) : answer.body;
    });
  }
}
