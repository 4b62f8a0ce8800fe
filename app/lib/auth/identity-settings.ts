import type { ClientIdentitySettings } from './identity-config.ts'

/**
 * The identity settings of this page, handed over by the root component during the first
 * render in the browser. Kept apart from Amplify so that pages which never touch a session
 * do not download it: `amplify.client.ts` reads them when it is first imported.
 */
let current: ClientIdentitySettings | undefined

export function provideIdentitySettings(settings: ClientIdentitySettings): void {
  current = settings
}

export function identitySettings(): ClientIdentitySettings {
  if (!current) throw new Error('identity settings were not provided by the root route')
  return current
}
