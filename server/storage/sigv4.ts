import {
  createHash,
  createHmac,
  createSecretKey,
  type KeyObject,
  timingSafeEqual,
} from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { S3Error } from './s3-error.ts'

/**
 * AWS Signature Version 4 as S3 uses it: in the Authorization header or in a presigned query
 * string. The canonical URI is the path exactly as sent (S3 signs it without normalising or
 * re-encoding); the canonical query string is rebuilt from the decoded parameters.
 */

export const ALGORITHM = 'AWS4-HMAC-SHA256'
export const EMPTY_SHA256 = createHash('sha256').update('').digest('hex')
export const MAX_SKEW_MS = 15 * 60 * 1000
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600

export type RawRequest = {
  method: string
  /** The request target as sent: path and query, still percent-encoded. */
  url: string
  headers: IncomingHttpHeaders
}

export type Scope = { date: string; region: string; service: string }

/** What a request claims: who signed it, when, over which headers, with which payload hash. */
export type SignedRequest = {
  kind: 'header' | 'presigned'
  accessKeyId: string
  sessionToken: string | undefined
  scope: Scope
  /** `YYYYMMDDTHHMMSSZ` */
  datetime: string
  signedHeaders: string[]
  signature: string
  /** `x-amz-content-sha256` (header) or UNSIGNED-PAYLOAD (presigned, unless that header is signed). */
  payloadHash: string
  /** Presigned only: seconds the URL lives. */
  expiresSeconds?: number
}

export const scopeString = (scope: Scope) =>
  `${scope.date}/${scope.region}/${scope.service}/aws4_request`

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest()
export const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')

// Kept as KeyObjects: an HMAC keyed by a Buffer wraps it in a new KeyObject on every call,
// which costs several times the HMAC itself, once per request and per chunk (decision 010).
const signingKeys = new Map<string, KeyObject>()
/** The derived key of a secret for a scope (cached: one derivation per key per day). */
export function signingKey(secret: string, scope: Scope): KeyObject {
  const cacheKey = `${sha256Hex(secret)}/${scopeString(scope)}`
  let key = signingKeys.get(cacheKey)
  if (!key) {
    key = createSecretKey(
      hmac(
        hmac(hmac(hmac(`AWS4${secret}`, scope.date), scope.region), scope.service),
        'aws4_request',
      ),
    )
    if (signingKeys.size >= 1000) signingKeys.clear()
    signingKeys.set(cacheKey, key)
  }
  return key
}

export const signString = (key: KeyObject, stringToSign: string) =>
  createHmac('sha256', key).update(stringToSign).digest('hex')

export function signaturesEqual(expected: string, provided: string): boolean {
  const a = Buffer.from(expected, 'utf8')
  const b = Buffer.from(provided, 'utf8')
  return a.length === b.length && timingSafeEqual(a, b)
}

/** RFC 3986 encoding, as SigV4 wants: everything but unreserved characters escaped. */
export function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
}

/** The query's parameters, decoded, in order; `+` stays a plus (S3 clients encode spaces as %20). */
export function parseQuery(url: string): [string, string][] {
  const mark = url.indexOf('?')
  if (mark < 0) return []
  const pairs: [string, string][] = []
  for (const part of url.slice(mark + 1).split('&')) {
    if (part === '') continue
    const equals = part.indexOf('=')
    const name = equals < 0 ? part : part.slice(0, equals)
    const value = equals < 0 ? '' : part.slice(equals + 1)
    pairs.push([decodeComponent(name), decodeComponent(value)])
  }
  return pairs
}

function decodeComponent(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    throw new S3Error('InvalidURI', "Couldn't parse the specified URI.")
  }
}

export function canonicalQuery(pairs: [string, string][]): string {
  return pairs
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&')
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  if (value === undefined) return undefined
  return Array.isArray(value) ? value.join(',') : value
}

export function canonicalRequest(
  request: RawRequest,
  signed: Pick<SignedRequest, 'signedHeaders' | 'payloadHash' | 'kind'>,
): string {
  const mark = request.url.indexOf('?')
  const path = mark < 0 ? request.url : request.url.slice(0, mark)
  const pairs = parseQuery(request.url).filter(
    ([name]) => !(signed.kind === 'presigned' && name === 'X-Amz-Signature'),
  )
  const headers = signed.signedHeaders.map((name) => {
    const value = (headerValue(request.headers, name) ?? '').trim().replace(/\s+/g, ' ')
    return `${name}:${value}\n`
  })
  return [
    request.method,
    path,
    canonicalQuery(pairs),
    headers.join(''),
    signed.signedHeaders.join(';'),
    signed.payloadHash,
  ].join('\n')
}

export function stringToSign(signed: SignedRequest, canonical: string): string {
  return [ALGORITHM, signed.datetime, scopeString(signed.scope), sha256Hex(canonical)].join('\n')
}

const malformedHeader = (message: string) =>
  new S3Error('AuthorizationHeaderMalformed', `The authorization header is malformed; ${message}`)
const malformedQuery = (message: string) =>
  new S3Error('AuthorizationQueryParametersError', message)

const DATETIME = /^(\d{8})T\d{6}Z$/

function parseCredential(
  credential: string,
  fail: (message: string) => S3Error,
): { accessKeyId: string; scope: Scope } {
  const parts = credential.split('/')
  const [accessKeyId, date, region, service, terminator] = parts
  if (parts.length !== 5 || !accessKeyId || !date || !region || !service) {
    throw fail(
      `the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".`,
    )
  }
  if (terminator !== 'aws4_request') {
    throw fail(
      `the Credential should be scoped with a valid terminator: 'aws4_request', not '${terminator}'.`,
    )
  }
  if (!/^\d{8}$/.test(date))
    throw fail(`incorrect date format "${date}". This date should be in YYYYMMDD format.`)
  if (service !== 's3') {
    throw fail(`the Credential should be scoped to correct service: 's3'.`)
  }
  return { accessKeyId, scope: { date, region, service } }
}

/**
 * What the request says about its signature, or undefined for an anonymous request. Checks the
 * shape only; `verifySignature` and `checkTime` do the rest.
 */
export function readSignedRequest(request: RawRequest): SignedRequest | undefined {
  const authorization = headerValue(request.headers, 'authorization')
  const query = new Map(parseQuery(request.url))
  if (authorization !== undefined && query.has('X-Amz-Algorithm')) {
    throw new S3Error(
      'InvalidArgument',
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
    )
  }
  if (authorization !== undefined) return readAuthorizationHeader(request, authorization)
  if (query.has('X-Amz-Algorithm')) return readPresignedQuery(request, query)
  return undefined
}

function readAuthorizationHeader(request: RawRequest, authorization: string): SignedRequest {
  const space = authorization.indexOf(' ')
  const algorithm = space < 0 ? authorization : authorization.slice(0, space)
  if (algorithm !== ALGORITHM) {
    throw new S3Error(
      'InvalidArgument',
      algorithm === 'AWS'
        ? 'Signature Version 2 is not supported; use AWS4-HMAC-SHA256.'
        : 'Unsupported Authorization Type',
    )
  }
  const fields = new Map<string, string>()
  for (const field of authorization.slice(space + 1).split(',')) {
    const equals = field.indexOf('=')
    if (equals > 0) fields.set(field.slice(0, equals).trim(), field.slice(equals + 1).trim())
  }
  const credential = fields.get('Credential')
  const signedHeaders = fields.get('SignedHeaders')
  const signature = fields.get('Signature')
  if (!credential || !signedHeaders || !signature) {
    throw malformedHeader('expecting "Credential", "SignedHeaders" and "Signature".')
  }
  const { accessKeyId, scope } = parseCredential(credential, malformedHeader)
  const datetime = headerValue(request.headers, 'x-amz-date')
  if (!datetime || !DATETIME.test(datetime)) {
    throw new S3Error(
      'AccessDenied',
      'AWS authentication requires a valid Date or x-amz-date header',
      403,
    )
  }
  if (datetime.slice(0, 8) !== scope.date) {
    throw malformedHeader(
      `incorrect date in the Credential scope "${scope.date}": it must match x-amz-date.`,
    )
  }
  const payloadHash = headerValue(request.headers, 'x-amz-content-sha256')
  if (!payloadHash) {
    throw new S3Error(
      'InvalidRequest',
      'Missing required header for this request: x-amz-content-sha256',
    )
  }
  return {
    kind: 'header',
    accessKeyId,
    sessionToken: headerValue(request.headers, 'x-amz-security-token'),
    scope,
    datetime,
    signedHeaders: signedHeaderList(signedHeaders, malformedHeader),
    signature,
    payloadHash,
  }
}

function readPresignedQuery(request: RawRequest, query: Map<string, string>): SignedRequest {
  if (query.get('X-Amz-Algorithm') !== ALGORITHM) {
    throw malformedQuery('X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"')
  }
  const credential = query.get('X-Amz-Credential')
  const datetime = query.get('X-Amz-Date')
  const expires = query.get('X-Amz-Expires')
  const signedHeaders = query.get('X-Amz-SignedHeaders')
  const signature = query.get('X-Amz-Signature')
  if (!credential || !datetime || !expires || !signedHeaders || !signature) {
    throw malformedQuery(
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    )
  }
  const { accessKeyId, scope } = parseCredential(credential, (message) =>
    malformedQuery(`Error parsing the X-Amz-Credential parameter; ${message}`),
  )
  if (!DATETIME.test(datetime)) {
    throw malformedQuery("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"")
  }
  if (!/^\d{1,7}$/.test(expires) || Number(expires) > MAX_PRESIGN_SECONDS) {
    throw malformedQuery(
      Number(expires) > MAX_PRESIGN_SECONDS
        ? 'X-Amz-Expires must be less than a week (in seconds) that is 604800'
        : 'X-Amz-Expires should be a number',
    )
  }
  const list = signedHeaderList(signedHeaders, malformedQuery)
  return {
    kind: 'presigned',
    accessKeyId,
    sessionToken: query.get('X-Amz-Security-Token'),
    scope,
    datetime,
    signedHeaders: list,
    signature,
    payloadHash:
      list.includes('x-amz-content-sha256') && request.headers['x-amz-content-sha256']
        ? String(request.headers['x-amz-content-sha256'])
        : 'UNSIGNED-PAYLOAD',
    expiresSeconds: Number(expires),
  }
}

function signedHeaderList(value: string, fail: (message: string) => S3Error): string[] {
  const names = value.split(';')
  if (!names.includes('host')) throw fail('the SignedHeaders must include "host".')
  if (names.some((name) => name !== name.toLowerCase() || name === '')) {
    throw fail('the SignedHeaders must be lowercase header names separated by ";".')
  }
  return names
}

export function datetimeMs(datetime: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(datetime)
  if (!match) return Number.NaN
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[]
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s)
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
/** `YYYYMMDDTHHMMSSZ`, the form of x-amz-date. */
export const amzDate = (ms: number) => isoSeconds(ms).replace(/[-:]/g, '')

/**
 * Header auth: the request time within 15 minutes of ours. Presigned: the URL signed at most 15
 * minutes in the future, not past its expiry, and living no longer than `maxSeconds`.
 */
export function checkTime(
  signed: SignedRequest,
  now: number,
  maxSeconds = MAX_PRESIGN_SECONDS,
): void {
  const signedAt = datetimeMs(signed.datetime)
  if (signed.kind === 'header') {
    if (Math.abs(now - signedAt) > MAX_SKEW_MS) {
      throw new S3Error(
        'RequestTimeTooSkewed',
        'The difference between the request time and the current time is too large.',
        403,
        {
          RequestTime: signed.datetime,
          ServerTime: isoSeconds(now),
          MaxAllowedSkewMilliseconds: String(MAX_SKEW_MS),
        },
      )
    }
    return
  }
  const expires = signed.expiresSeconds ?? 0
  if (expires > maxSeconds) {
    throw malformedQuery(`X-Amz-Expires must be at most ${maxSeconds} seconds on this server`)
  }
  if (signedAt - now > MAX_SKEW_MS) {
    throw new S3Error('AccessDenied', 'Request is not valid yet', 403, {
      'X-Amz-Date': signed.datetime,
      ServerTime: isoSeconds(now),
    })
  }
  if (now > signedAt + expires * 1000) {
    throw new S3Error('AccessDenied', 'Request has expired', 403, {
      'X-Amz-Expires': String(expires),
      Expires: isoSeconds(signedAt + expires * 1000),
      ServerTime: isoSeconds(now),
    })
  }
}

/** Throws SignatureDoesNotMatch unless the request was signed with this secret. */
export function verifySignature(
  request: RawRequest,
  signed: SignedRequest,
  secret: string,
): KeyObject {
  const canonical = canonicalRequest(request, signed)
  const toSign = stringToSign(signed, canonical)
  const key = signingKey(secret, signed.scope)
  if (!signaturesEqual(signString(key, toSign), signed.signature)) {
    throw new S3Error(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      403,
      {
        AWSAccessKeyId: signed.accessKeyId,
        StringToSign: toSign,
        SignatureProvided: signed.signature,
        CanonicalRequest: canonical,
      },
    )
  }
  return key
}
