import type { HttpClient, HttpClientConfig, RequestOptions } from './client.ts';
import type { HttpMethod } from './errors.ts';

/** An `HttpClient` whose code loads on its first request (the login page makes none). */
export function lazyHttpClient(config: HttpClientConfig): HttpClient {
  let client: Promise<HttpClient> | null = null;
  const load = () => {
    client ??= import('./client.ts').then((module) => module.createHttpClient(config));
    return client;
  };
  const request = async <T>(method: HttpMethod, path: string, options?: RequestOptions<T>): Promise<T> =>
    (await load()).request<T>(method, path, options);
  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, options) => request('POST', path, options),
    put: (path, options) => request('PUT', path, options),
    patch: (path, options) => request('PATCH', path, options),
    delete: (path, options) => request('DELETE', path, options),
  };
}
