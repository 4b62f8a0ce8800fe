/** Where browsers read the site's public objects (the addresses `publicObjectUrl` makes). */
export type PublicObjectPlace = {
  bucket: string
  region: string
  /** `embedded`: the site's own `/s3` endpoint; `aws`: Amazon S3. */
  endpoints: 'embedded' | 'aws'
  /** The path of the site's endpoint, e.g. `/s3`. */
  endpointPath: string
  /** STORAGE_PUBLIC_URL, when public objects have an origin of their own. */
  publicUrl: string | undefined
  /** The site's own origins: an absolute URL on one of them is a same-site path. */
  siteOrigins: readonly string[]
}

// Resolving against a base that cannot be a real host tells same-site paths from other origins.
const RELATIVE_BASE = 'https://relative.invalid/'

function decodedKey(encoded: string): string | undefined {
  try {
    const key = decodeURIComponent(encoded)
    return key === '' ? undefined : key
  } catch {
    return undefined
  }
}

function keyAfter(url: URL, origin: string, path: string): string | undefined {
  if (url.origin !== origin || !url.pathname.startsWith(path)) return undefined
  return decodedKey(url.pathname.slice(path.length))
}

/**
 * The key of the site's object that an image address (as written in Markdown, relative or
 * absolute) loads, or undefined when it loads something else, e.g. an external https image.
 * The URL parser normalises dot segments and the like, as the browser does before asking.
 */
export function publicObjectKeyOf(place: PublicObjectPlace, address: string): string | undefined {
  let url: URL
  try {
    url = new URL(address, RELATIVE_BASE)
  } catch {
    return undefined
  }
  const bucketPath = `${place.endpointPath}/${encodeURIComponent(place.bucket)}/`
  const sameSite = [new URL(RELATIVE_BASE).origin, ...place.siteOrigins]
  for (const origin of sameSite) {
    const key = keyAfter(url, origin, bucketPath)
    if (key) return key
  }
  if (place.publicUrl) {
    const base = new URL(`${place.publicUrl.replace(/\/$/, '')}/`)
    const key = keyAfter(url, base.origin, base.pathname)
    if (key) return key
  }
  if (place.endpoints === 'aws') {
    const host = `https://${place.bucket}.s3.${place.region}.amazonaws.com`
    return (
      keyAfter(url, host, '/') ??
      keyAfter(url, `https://s3.${place.region}.amazonaws.com`, `/${place.bucket}/`)
    )
  }
  return undefined
}
