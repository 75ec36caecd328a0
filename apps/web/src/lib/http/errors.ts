export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A failed product call: a status outside 200–299, a network failure or a timeout. */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly url: string;
  readonly method: HttpMethod;
  /** `null` when no response arrived (network failure, timeout). */
  readonly status: number | null;
  /** The parsed response body, when there was one. */
  readonly data: unknown;

  constructor(init: {
    url: string;
    method: HttpMethod;
    status: number | null;
    data?: unknown;
    message?: string;
    cause?: unknown;
  }) {
    super('', { cause: init.cause });
    this.url = init.url;
    this.method = init.method;
    this.status = init.status;
    this.data = init.data;
    this.message = init.message ?? describeHttpError(this) ?? 'Request failed';
  }
}

/** The response body's `error.message`, when it has one (the services' error shape). */
export function serverErrorMessage(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || !('error' in data)) return null;
  const error = (data as { error: unknown }).error;
  if (typeof error !== 'object' || error === null || !('message' in error)) return null;
  const message = (error as { message: unknown }).message;
  return typeof message === 'string' && message.trim() !== '' ? message : null;
}

function describeHttpError(error: HttpError): string | null {
  const fromServer = serverErrorMessage(error.data);
  if (fromServer) return fromServer;
  if (error.status !== null) {
    return `Request to ${error.url} with method ${error.method} failed with status ${error.status}`;
  }
  return null;
}

/**
 * The message shown for a failed request (docs/ARCHITECTURE.md#calling-the-api): the server's `error.message`; else
 * "Request to {url} with method {METHOD} failed with status {status}"; else the error's own
 * message; else `fallback`.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof HttpError) {
    const described = describeHttpError(error);
    if (described) return described;
  }
  if (error instanceof Error && error.message.trim() !== '') return error.message;
  return fallback;
}

/** A response that did not match its contract. */
export class ResponseValidationError extends Error {
  override name = 'ResponseValidationError';
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`Unexpected response from ${url}`, { cause });
  }
}
