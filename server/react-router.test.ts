import { describe, expect, it } from 'vitest'
import { withoutTrackingParameters } from './react-router.ts'
import { isSessionRequest } from './web-session/cookies.ts'

describe('withoutTrackingParameters', () => {
  it.each([
    ['/', '/'],
    ['/courses?cursor=abc', '/courses?cursor=abc'],
    ['/?utm_source=x&utm_medium=mail', '/'],
    ['/courses?utm_campaign=a&cursor=abc&fbclid=1', '/courses?cursor=abc'],
    ['/?GCLID=1&q=%E3%81%82', '/?q=%E3%81%82'],
  ])('%s → %s', (path, expected) => {
    expect(withoutTrackingParameters(path)).toBe(expected)
  })
})

describe('isSessionRequest', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['_ga=GA1.1; theme=dark', false],
    ['_ga=1; CognitoIdentityServiceProvider.abc.LastAuthUser=hana', true],
    ['CognitoIdentityServiceProvider.abc.hana.idToken=eyJ', true],
    // The session reader decodes names as js-cookie writes them: so must this check.
    ['CognitoIdentityServiceProvider%2Eabc%2ELastAuthUser=hana', true],
    ['CognitoIdentityServiceProvider%2eabc.hana.idToken=eyJ', true],
    [' x=1;CognitoIdentityServiceProvider.abc.LastAuthUser=hana', true],
    ['CognitoIdentityServiceProvider=x', false],
  ])('%j → %s', (header, expected) => {
    expect(isSessionRequest(header)).toBe(expected)
  })
})
