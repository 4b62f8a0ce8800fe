import { S3Error } from './s3-error.ts'
import { parseQuery } from './sigv4.ts'

/**
 * Where a path-style request points: `/s3/{bucket}/{key}`, both percent-decoded, and its query.
 * The key is what follows the bucket's slash, exactly: no segment is normalised away.
 */
export type S3Target = {
  bucket: string | undefined
  key: string | undefined
  query: Map<string, string>
}

export const MAX_KEY_BYTES = 1024

const decode = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    throw new S3Error('InvalidURI', "Couldn't parse the specified URI.")
  }
}

/**
 * `hostBucket`: the bucket a virtual-hosted-style request names in its host
 * (`{bucket}.{storage host name}`); then the whole path is the key.
 */
export function parseTarget(url: string, mount: string, hostBucket?: string): S3Target {
  const mark = url.indexOf('?')
  const path = (mark < 0 ? url : url.slice(0, mark)).slice(mount.length)
  const query = new Map(parseQuery(url))
  const rest = path.replace(/^\//, '')
  if (hostBucket !== undefined) {
    const key = decode(rest)
    return { bucket: checkBucketName(hostBucket), key: key === '' ? undefined : key, query }
  }
  if (rest === '') return { bucket: undefined, key: undefined, query }
  const slash = rest.indexOf('/')
  const bucket = decode(slash < 0 ? rest : rest.slice(0, slash))
  const key = slash < 0 ? '' : decode(rest.slice(slash + 1))
  return { bucket: checkBucketName(bucket), key: key === '' ? undefined : key, query }
}

/** The bucket named by a Host `{bucket}.{hostname}[:port]`, if the host is one of those. */
export function bucketOfHost(host: string | undefined, hostname: string): string | undefined {
  const name = (host ?? '').replace(/:\d+$/, '').toLowerCase()
  return name.endsWith(`.${hostname}`) ? name.slice(0, -hostname.length - 1) : undefined
}

const invalidBucketName = (bucket: string) =>
  new S3Error('InvalidBucketName', 'The specified bucket is not valid.', 400, {
    BucketName: bucket,
  })

/** S3's naming rules; a slash (an access point's ARN) is not a bucket this endpoint serves. */
export function checkBucketName(bucket: string): string {
  const valid =
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) &&
    !bucket.includes('..') &&
    !/^\d+\.\d+\.\d+\.\d+$/.test(bucket)
  if (!valid) throw invalidBucketName(bucket)
  return bucket
}

const invalidKey = (key: string, message: string) =>
  new S3Error('InvalidArgument', message, 400, { ArgumentName: 'key', ArgumentValue: key })

/**
 * Keys this endpoint refuses (docs/decisions/011): over 1024 UTF-8 bytes (S3's limit), control
 * characters (XML 1.0 cannot carry them in listings), and `.`/`..`/empty path segments, which
 * browsers and URL libraries rewrite before sending, so such a key could not be read back.
 */
export function checkKey(key: string): string {
  if (key === '') throw invalidKey(key, 'The object key must not be empty.')
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) {
    throw new S3Error('KeyTooLongError', 'Your key is too long', 400, {
      Size: String(Buffer.byteLength(key, 'utf8')),
      MaxSizeAllowed: String(MAX_KEY_BYTES),
    })
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(key)) {
    throw invalidKey(key, 'The object key must not contain control characters.')
  }
  const segments = key.split('/')
  const badSegment = segments.some((segment, index) =>
    segment === '' ? index < segments.length - 1 : segment === '.' || segment === '..',
  )
  if (badSegment) {
    throw invalidKey(key, 'The object key must not contain ".", ".." or empty path segments.')
  }
  return key
}

/** A whole number from the query within bounds, or InvalidArgument naming the parameter. */
export function queryInteger(
  query: Map<string, string>,
  name: string,
  bounds: { min: number; max: number; fallback?: number; message?: string },
): number | undefined {
  const value = query.get(name)
  if (value === undefined) return bounds.fallback
  const number = /^-?\d{1,10}$/.test(value) ? Number(value) : Number.NaN
  if (!(number >= bounds.min && number <= bounds.max)) {
    throw new S3Error(
      'InvalidArgument',
      bounds.message ?? `Provided ${name} not an integer or within integer range`,
      400,
      { ArgumentName: name, ArgumentValue: value },
    )
  }
  return number
}
