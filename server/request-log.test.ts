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
})
