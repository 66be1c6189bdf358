/**
 * A small REST client for e2e tests: fetch with a bearer token, JSON in and out, status, headers and the
 * Link header. (For GitHub's secret scanning endpoints through a real SDK, see ./octokit.)
 */
export interface RestResponse<T = any> {
  status: number;
  /** Parsed JSON (the text when it is not JSON); null for an empty body. */
  body: T;
  /** The body as sent. */
  text: string;
  headers: Headers;
  link: string | null;
}

export interface RestCallOptions {
  /** Sent as `Authorization: Bearer <token>` when given. */
  token?: string | null;
  /** Sent as JSON when given. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** One request to `baseUrl + path`. */
export async function restCall<T = any>(baseUrl: string, method: string, path: string, opts: RestCallOptions = {}): Promise<RestResponse<T>> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, body: parsed as T, text, headers: res.headers, link: res.headers.get('link') };
}

export interface RestClient {
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RestResponse<T>>;
  get<T = any>(path: string, headers?: Record<string, string>): Promise<RestResponse<T>>;
}

/** A client of the server at `baseUrl`; requests carry `Authorization: Bearer <token>` when a token is given. */
export function restClient(baseUrl: string, token?: string | null): RestClient {
  const request = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => restCall<T>(baseUrl, method, path, { token, body, headers });
  return { request, get: (path, headers) => request('GET', path, undefined, headers) };
}
