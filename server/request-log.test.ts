import { describe, expect, it } from 'vitest'
import { loggableUrl } from './request-log.ts'

describe('request URLs in logs', () => {
  it('hide OAuth codes, states and tokens, and keep everything else', () => {
    expect(loggableUrl('/oauth2/idpresponse?state=s3cret&code=c0de&iss=https%3A%2F%2Fg')).toBe(
      '/oauth2/idpresponse?state=***&code=***&iss=https%3A%2F%2Fg',
    )
    expect(loggableUrl('/auth/callback_google?code=abc&state=xyz')).toBe(
      '/auth/callback_google?code=***&state=***',
    )
    expect(loggableUrl('/courses?page=2')).toBe('/courses?page=2')
    expect(loggableUrl('/healthz')).toBe('/healthz')
  })

  it("hide a presigned URL's signature, session token and access key id", () => {
    const url =
      '/s3/techlab/public/a.png?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIAKEY%2F20261123%2Fap-northeast-1%2Fs3%2Faws4_request&X-Amz-Security-Token=secret-token&X-Amz-Signature=abc123&x-id=GetObject'
    const logged = loggableUrl(url)
    for (const secret of ['ASIAKEY', 'secret-token', 'abc123']) expect(logged).not.toContain(secret)
    expect(logged).toContain('X-Amz-Signature=***')
    expect(logged).toContain('x-id=GetObject')
  })
})
