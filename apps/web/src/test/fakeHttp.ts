import { type Mock, vi } from 'vitest';
import { type ApiClient, createApiClient } from '../lib/http/client.ts';
import { HttpError, type HttpMethod } from '../lib/http/errors.ts';

/** What a fake service saw of a call: its query (as sent, strings) and JSON body. */
export interface FakeRequest {
  query: Record<string, string>;
  body?: unknown;
  credentials: RequestCredentials;
  /** Hands the answer's headers (e.g. the paging headers of a list) to the client. */
  onResponse(response: { headers: Headers }): void;
}

type FakeHandler = (path: string, request: FakeRequest) => Promise<unknown>;
type Verb = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A real API client whose service is five mocks, one per method, called with the path (no query). */
export type FakeApi = ApiClient & { [K in Verb]: Mock<FakeHandler> };

const VERBS: [Verb, HttpMethod][] = [
  ['get', 'GET'],
  ['post', 'POST'],
  ['put', 'PUT'],
  ['patch', 'PATCH'],
  ['delete', 'DELETE'],
];

/**
 * The app's own client (typed paths, middleware, error mapping, retries without waiting) over a
 * fake service: a mock's value is the JSON answer (undefined: 204), a thrown `HttpError` its status.
 */
export function fakeApi(): FakeApi {
  const mocks = Object.fromEntries(VERBS.map(([verb]) => [verb, vi.fn<FakeHandler>(async () => undefined)]));
  const api = {} as FakeApi;
  const client = createApiClient({
    baseUrl: 'http://api.test',
    context: () => ({ idToken: null, user: null }),
    sleep: async () => {},
    readCookie: () => null,
    fetch: async (request) => {
      const url = new URL(request.url);
      const verb = VERBS.find(([, method]) => method === request.method)?.[0] ?? 'get';
      const text = await request.text();
      let headers = new Headers();
      const seen: FakeRequest = {
        query: Object.fromEntries(url.searchParams),
        ...(text ? { body: JSON.parse(text) as unknown } : {}),
        credentials: request.credentials,
        onResponse: (response) => {
          headers = new Headers(response.headers);
        },
      };
      try {
        // A prefix's root is documented with its trailing slash; the fakes name it without.
        const data = await api[verb](url.pathname.replace(/(.)\/$/, '$1'), seen);
        if (data === undefined) return new Response(null, { status: 204, headers });
        headers.set('content-type', 'application/json');
        return new Response(JSON.stringify(data), { status: 200, headers });
      } catch (error) {
        if (!(error instanceof HttpError) || error.status === null) throw error;
        return new Response(JSON.stringify(error.data ?? null), {
          status: error.status,
          headers: { 'content-type': 'application/json' },
        });
      }
    },
  });
  // The mocks are looked up at call time: a test may swap one (`Object.assign(http, { get })`).
  return Object.assign(api, client, mocks);
}

/** What a fake route answers: a body (and paging headers), or an error status with the services' error body. */
type FakeAnswer =
  | { body?: unknown; headers?: Record<string, string | undefined> }
  | { status: number; code: string; message: string; details?: unknown };

type FakeRoute = (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

/**
 * Answers a fake API's calls by `"METHOD /path"` (no query): paging headers handed back, errors
 * thrown as `HttpError`. Unknown routes fail the test.
 */
export function routeHttp(http: FakeApi, routes: Record<string, FakeRoute>): void {
  for (const [verb, method] of VERBS) {
    http[verb].mockImplementation(async (path, request) => {
      const route = routes[`${method} ${path}`];
      if (!route) throw new Error(`No fake route for ${method} ${path}`);
      const answer = await route(request);
      if ('status' in answer) {
        const { status, code, message, details } = answer;
        throw new HttpError({
          url: path,
          method,
          status,
          data: { error: { status, code, message, details } },
        });
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers ?? {}))
        if (value !== undefined) headers.set(name, value);
      request.onResponse({ headers });
      return answer.body;
    });
  }
}
