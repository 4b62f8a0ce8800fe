import { describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { createAuthService } from './auth-service.server.ts'

const embedded = { identityPool: true, totpMfa: true, rememberedDevices: false }

describe('the Google button', () => {
  it('is offered only when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set', () => {
    const without = createAuthService(loadConfig({}).identity, { embedded })
    expect(without.client.googleSignIn).toBe(false)
    const google = { GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 's' }
    const withGoogle = createAuthService(loadConfig(google).identity, { embedded })
    expect(withGoogle.client.googleSignIn).toBe(true)
    // Against Amazon Cognito the hosted sign-in is Cognito's domain, not configurable yet.
    const aws = loadConfig({ ...google, IDENTITY_ENDPOINTS: 'aws' })
    expect(createAuthService(aws.identity, { embedded }).client.googleSignIn).toBe(false)
  })

  it('tells a plain-http page the port of the TLS listener', () => {
    const config = loadConfig({ HTTPS_PORT: '3443' })
    const service = createAuthService(config.identity, { embedded, httpsPort: config.https?.port })
    expect(service.client.httpsPort).toBe(3443)
    expect(createAuthService(config.identity, { embedded }).client.httpsPort).toBeUndefined()
  })
})
