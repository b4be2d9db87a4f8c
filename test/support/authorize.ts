/**
 * The authorize-application form as a browser uses it: load the page (which starts the form's session,
 * a cookie, and prints its nonce), then post the form with both.
 */
export const AUTHORIZE_PAGE = '/cms-admin/authorize-application.php';

export interface AuthorizeSession {
  /** The `Cookie` header value the page set. */
  cookie: string;
  /** The form's `_wpnonce`. */
  nonce: string;
}

/** Loads the form (with `query`) and returns its session cookie and nonce. */
export async function openAuthorizeForm(baseUrl: string, query = '', headers: Record<string, string> = {}): Promise<AuthorizeSession> {
  const res = await fetch(`${baseUrl}${AUTHORIZE_PAGE}${query ? `?${query}` : ''}`, { headers, redirect: 'manual' });
  const html = await res.text();
  if (res.status !== 200) throw new Error(`authorize form: ${res.status} ${html.slice(0, 200)}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  const nonce = /name="_wpnonce" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return { cookie, nonce };
}

/** Posts the form's fields, with the session's cookie and nonce unless they are left out (`null`). */
export function postAuthorizeForm(
  baseUrl: string,
  fields: Record<string, string>,
  session: Partial<AuthorizeSession> | null,
  headers: Record<string, string> = {},
): Promise<Response> {
  const body = new URLSearchParams({ ...fields, ...(session?.nonce ? { _wpnonce: session.nonce } : {}) });
  return fetch(`${baseUrl}${AUTHORIZE_PAGE}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(session?.cookie ? { Cookie: session.cookie } : {}), ...headers },
    body: body.toString(),
  });
}
