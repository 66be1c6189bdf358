/**
 * A small REST client for e2e tests: fetch with a bearer token, JSON in and out, status, headers and the
 * Link header. (For GitHub's secret scanning endpoints through a real SDK, see ./octokit.)
 */
export interface RestResponse<T = any> {
  status: number;
  /** Parsed JSON; null for an empty body. */
  body: T;
  headers: Headers;
  link: string | null;
}

export interface RestClient {
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RestResponse<T>>;
  get<T = any>(path: string, headers?: Record<string, string>): Promise<RestResponse<T>>;
}

/** A client of the server at `baseUrl`; requests carry `Authorization: Bearer <token>` when a token is given. */
export function restClient(baseUrl: string, token?: string | null): RestClient {
  const request = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RestResponse<T>> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
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
    return { status: res.status, body: parsed as T, headers: res.headers, link: res.headers.get('link') };
  };
  return { request, get: (path, headers) => request('GET', path, undefined, headers) };
}
