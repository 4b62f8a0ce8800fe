import { describe, expect, it } from 'vitest'
import {
  amplifyResourcesConfig,
  type ClientIdentitySettings,
  sessionCookieOptions,
} from './identity-config.ts'

const embedded: ClientIdentitySettings = {
  region: 'ap-northeast-1',
  userPoolId: 'ap-northeast-1_TechLabPool',
  userPoolClientId: 'techlabwebclient0000000000',
  endpoints: 'embedded',
  userPoolEndpoint: '/cognito-idp',
  identityPoolEndpoint: '/cognito-identity',
  identityPoolId: 'ap-northeast-1:7ec41ab0-0000-4000-8000-000000000001',
  allowGuestAccess: true,
  googleSignIn: false,
  httpsPort: undefined,
  features: { totpMfa: false, rememberedDevices: false },
  sessionCookie: 'CognitoIdentityServiceProvider.techlabwebclient0000000000.LastAuthUser',
}

describe("Amplify's configuration", () => {
  it("points Amplify at this site's endpoints in embedded mode, on the page's origin", () => {
    const config = amplifyResourcesConfig(embedded, 'https://learn.example.jp')
    expect(config.Auth?.Cognito).toMatchObject({
      userPoolId: 'ap-northeast-1_TechLabPool',
      userPoolClientId: 'techlabwebclient0000000000',
      userPoolEndpoint: 'https://learn.example.jp/cognito-idp',
      identityPoolId: 'ap-northeast-1:7ec41ab0-0000-4000-8000-000000000001',
      identityPoolEndpoint: 'https://learn.example.jp/cognito-identity',
      allowGuestAccess: true,
      loginWith: { username: true, email: true },
    })
    expect(config.Auth?.Cognito.loginWith?.oauth).toBeUndefined()
  })

  it('leaves the endpoints to Amplify against Amazon Cognito', () => {
    const config = amplifyResourcesConfig(
      {
        ...embedded,
        endpoints: 'aws',
        userPoolEndpoint: undefined,
        identityPoolEndpoint: undefined,
      },
      'https://learn.example.jp',
    )
    expect(config.Auth?.Cognito).not.toHaveProperty('userPoolEndpoint')
    expect(config.Auth?.Cognito).not.toHaveProperty('identityPoolEndpoint')
  })

  it('leaves the identity pool out while it does not answer', () => {
    const config = amplifyResourcesConfig(
      { ...embedded, identityPoolId: undefined },
      'http://localhost:3000',
    )
    expect(config.Auth?.Cognito).not.toHaveProperty('identityPoolId')
    expect(config.Auth?.Cognito).not.toHaveProperty('identityPoolEndpoint')
  })

  it('configures hosted sign-in for Google only when it is enabled', () => {
    const config = amplifyResourcesConfig(
      { ...embedded, googleSignIn: true },
      'https://learn.example.jp',
    )
    expect(config.Auth?.Cognito.loginWith?.oauth).toMatchObject({
      domain: 'learn.example.jp',
      redirectSignIn: ['https://learn.example.jp/auth/callback_google'],
      responseType: 'code',
      providers: ['Google'],
    })
  })
})

describe('session cookie options', () => {
  it("follow the seed's defaults: a year, the whole site, lax, secure", () => {
    expect(sessionCookieOptions({ protocol: 'https:', hostname: 'learn.example.jp' })).toEqual({
      expires: 365,
      path: '/',
      secure: true,
      sameSite: 'lax',
    })
  })

  it.each(['localhost', '127.0.0.1', '[::1]'])('are not secure on plain http://%s', (hostname) => {
    expect(sessionCookieOptions({ protocol: 'http:', hostname }).secure).toBe(false)
    expect(sessionCookieOptions({ protocol: 'https:', hostname }).secure).toBe(true)
  })

  it('stay secure on plain http elsewhere (such cookies need https)', () => {
    expect(sessionCookieOptions({ protocol: 'http:', hostname: 'learn.example.jp' }).secure).toBe(
      true,
    )
  })
})
