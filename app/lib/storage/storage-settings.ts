/**
 * What the browser needs to reach object storage: the bucket, its region and, in embedded mode,
 * the path of this site's own S3-compatible endpoint. Nothing secret; credentials come from the
 * identity pool.
 */
export type ClientStorageSettings = {
  /** `embedded`: this site answers `/s3` (path-style); `aws`: Amazon S3 does. */
  endpoints: 'embedded' | 'aws'
  /** A path on this site, resolved against the page's origin (embedded only). */
  endpointPath: string | undefined
  region: string
  /** Where public objects are read, on an origin of their own (STORAGE_PUBLIC_URL), if set. */
  publicUrl: string | undefined
  bucket: string
  prefixes: Record<AccessLevel, string>
}

/** The seed's access levels: who may read and write a key follows from its prefix. */
export type AccessLevel = 'public' | 'protected' | 'private'

/**
 * The key of a file at an access level: `public/{name}`, or the protected and private prefixes
 * followed by the identity id, which the server checks against the signer's identity.
 */
export function objectKey(
  prefixes: ClientStorageSettings['prefixes'],
  level: AccessLevel,
  identityId: string,
  name: string,
): string {
  if (!name || name.startsWith('/'))
    throw new Error('A file name must not be empty or start with /')
  return level === 'public'
    ? `${prefixes.public}${name}`
    : `${prefixes[level]}${identityId}/${name}`
}

/** The endpoint URL the S3 client is configured with, or undefined for Amazon S3 itself. */
export function storageEndpoint(settings: ClientStorageSettings, origin: string) {
  return settings.endpoints === 'embedded' && settings.endpointPath
    ? new URL(settings.endpointPath, origin).href
    : undefined
}

/**
 * The address of a public object, readable without signing (the public prefix is world-readable
 * on our endpoint, and by bucket policy on Amazon S3); on the public origin when there is one.
 */
export function publicObjectUrl(settings: ClientStorageSettings, key: string): string {
  const encodedKey = key.split('/').map(encodeURIComponent).join('/')
  if (settings.publicUrl) return `${settings.publicUrl}/${encodedKey}`
  return settings.endpoints === 'embedded'
    ? `${settings.endpointPath}/${encodeURIComponent(settings.bucket)}/${encodedKey}`
    : `https://${settings.bucket}.s3.${settings.region}.amazonaws.com/${encodedKey}`
}
