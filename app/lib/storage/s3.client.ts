import { S3Client } from '@aws-sdk/client-s3'
import { loadAuth } from '#app/lib/auth/load-auth.ts'
import { type ClientStorageSettings, storageEndpoint } from './storage-settings.ts'

/**
 * The browser's S3 client: this site's `/s3` (path-style) in embedded mode, Amazon S3 otherwise,
 * signing with the identity pool's credentials for the current session (guest or signed in).
 * Amplify Storage cannot target a custom endpoint, hence the SDK itself.
 */
export function browserS3Client(settings: ClientStorageSettings): S3Client {
  const endpoint = storageEndpoint(settings, window.location.origin)
  return new S3Client({
    region: settings.region,
    ...(endpoint && { endpoint, forcePathStyle: true }),
    credentials: async () => {
      const { credentials } = await (await loadAuth()).fetchAuthSession()
      if (!credentials) throw new Error('No credentials')
      return credentials
    },
  })
}

/** The identity id whose protected and private prefixes this browser may write. */
export async function currentIdentityId(): Promise<string> {
  const { identityId } = await (await loadAuth()).fetchAuthSession()
  if (!identityId) throw new Error('No credentials')
  return identityId
}
