/** Calls the test server's /api with a JSON body, signed in by a Cookie header or as a guest. */
export async function callApi(
  baseUrl: string,
  method: string,
  path: string,
  cookie?: string,
  body?: unknown,
) {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: {
      ...(cookie && { cookie }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : undefined }
}

/** Fetches a page of the test server as it is answered (redirects are not followed). */
export async function fetchPage(baseUrl: string, path: string, cookie?: string) {
  const response = await fetch(`${baseUrl}${path}`, {
    headers: cookie ? { cookie } : {},
    redirect: 'manual',
  })
  return { status: response.status, html: await response.text(), response }
}
