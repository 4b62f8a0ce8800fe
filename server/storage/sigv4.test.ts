import { Sha256 } from '@aws-crypto/sha256-js'
import { SignatureV4 } from '@smithy/signature-v4'
import { describe, expect, it } from 'vitest'
import { S3Error } from './s3-error.ts'
import {
  amzDate,
  checkTime,
  type RawRequest,
  readSignedRequest,
  verifySignature,
  withoutSignedQuery,
} from './sigv4.ts'

const credentials = {
  accessKeyId: 'ASIATESTKEY000000001',
  secretAccessKey: 'secret/with+chars',
  sessionToken: 'token',
}
const signer = new SignatureV4({
  credentials,
  region: 'ap-northeast-1',
  service: 's3',
  sha256: Sha256,
  uriEscapePath: false,
  applyChecksum: false,
})
const NOW = Date.UTC(2026, 10, 23, 9, 0, 0)

/** Signs a request as the SDK's S3 client does, and gives it back as the server receives it. */
async function signed(
  path: string,
  query: Record<string, string> = {},
  options: { at?: number; payload?: string } = {},
): Promise<RawRequest> {
  const request = await signer.sign(
    {
      method: 'GET',
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: 3000,
      path,
      query,
      headers: {
        host: '127.0.0.1:3000',
        'x-amz-content-sha256': options.payload ?? 'UNSIGNED-PAYLOAD',
      },
    },
    { signingDate: new Date(options.at ?? NOW) },
  )
  return toRaw(request)
}

function toRaw(request: {
  method: string
  path: string
  query?: Record<string, unknown>
  headers: Record<string, string>
}): RawRequest {
  const search = new URLSearchParams(request.query as Record<string, string>)
    .toString()
    .replace(/\+/g, '%20')
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]),
  )
  return {
    method: request.method,
    url: search ? `${request.path}?${search}` : request.path,
    headers,
  }
}

function s3Error(run: () => unknown): S3Error {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(S3Error)
    return error as S3Error
  }
  throw new Error('expected an S3Error')
}

describe('SigV4 in the Authorization header', () => {
  it('verifies what the SDK signer signs, keys and query included', async () => {
    const request = await signed('/s3/techlab/public/a%20b%2Bc.txt', {
      'list-type': '2',
      prefix: 'public/ä b',
      'response-content-disposition': 'attachment; filename="x.txt"',
    })
    const claim = readSignedRequest(request)
    expect(claim).toMatchObject({
      kind: 'header',
      accessKeyId: credentials.accessKeyId,
      sessionToken: 'token',
    })
    if (!claim) throw new Error('unsigned')
    expect(() => verifySignature(request, claim, credentials.secretAccessKey)).not.toThrow()
    expect(() => checkTime(claim, NOW + 60_000)).not.toThrow()
  })

  it('answers SignatureDoesNotMatch for another secret, path, query or header', async () => {
    const request = await signed('/s3/techlab/public/a.txt', { prefix: 'p' })
    const claim = readSignedRequest(request)
    if (!claim) throw new Error('unsigned')
    const variants: RawRequest[] = [
      { ...request, url: '/s3/techlab/public/b.txt?prefix=p' },
      { ...request, url: '/s3/techlab/public/a.txt?prefix=q' },
      { ...request, method: 'DELETE' },
      { ...request, headers: { ...request.headers, host: 'elsewhere' } },
    ]
    for (const variant of variants) {
      expect(s3Error(() => verifySignature(variant, claim, credentials.secretAccessKey)).code).toBe(
        'SignatureDoesNotMatch',
      )
    }
    const wrongSecret = s3Error(() => verifySignature(request, claim, 'another secret'))
    expect(wrongSecret).toMatchObject({ code: 'SignatureDoesNotMatch', status: 403 })
    expect(wrongSecret.details.StringToSign).toContain('AWS4-HMAC-SHA256')
  })

  it('answers RequestTimeTooSkewed with ServerTime beyond 15 minutes either way', async () => {
    const claim = readSignedRequest(await signed('/s3/techlab/k', {}, { at: NOW }))
    if (!claim) throw new Error('unsigned')
    expect(() => checkTime(claim, NOW + 15 * 60_000)).not.toThrow()
    expect(() => checkTime(claim, NOW - 15 * 60_000)).not.toThrow()
    for (const now of [NOW + 15 * 60_000 + 1000, NOW - 16 * 60_000]) {
      const error = s3Error(() => checkTime(claim, now))
      expect(error).toMatchObject({ code: 'RequestTimeTooSkewed', status: 403 })
      expect(error.details.ServerTime).toBe(new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'))
    }
  })

  it('refuses a missing x-amz-content-sha256, a malformed credential and Signature Version 2', async () => {
    const request = await signed('/s3/techlab/k')
    const { 'x-amz-content-sha256': _, ...withoutHash } = request.headers
    expect(s3Error(() => readSignedRequest({ ...request, headers: withoutHash })).code).toBe(
      'InvalidRequest',
    )
    const authorization = String(request.headers.authorization).replace(
      '/s3/aws4_request',
      '/sqs/aws4_request',
    )
    expect(
      s3Error(() =>
        readSignedRequest({ ...request, headers: { ...request.headers, authorization } }),
      ).code,
    ).toBe('AuthorizationHeaderMalformed')
    expect(
      s3Error(() =>
        readSignedRequest({
          ...request,
          headers: { ...request.headers, authorization: 'AWS AKID:sig' },
        }),
      ).code,
    ).toBe('InvalidArgument')
  })

  it('treats a request without a signature as anonymous', () => {
    expect(
      readSignedRequest({ method: 'GET', url: '/s3/techlab/public/a', headers: { host: 'h' } }),
    ).toBeUndefined()
  })
})

describe('SigV4 presigned query strings', () => {
  async function presigned(expiresIn: number, at = NOW): Promise<RawRequest> {
    const request = await signer.presign(
      {
        method: 'GET',
        protocol: 'http:',
        hostname: '127.0.0.1',
        port: 3000,
        path: '/s3/techlab/public/photo.png',
        query: { 'x-id': 'GetObject' },
        // What @aws-sdk/s3-request-presigner does: the payload is UNSIGNED-PAYLOAD, not signed as a header.
        headers: { host: '127.0.0.1:3000', 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      },
      {
        signingDate: new Date(at),
        expiresIn,
        unsignableHeaders: new Set(['x-amz-content-sha256']),
      },
    )
    const { 'x-amz-content-sha256': _, ...headers } = request.headers
    return toRaw({ ...request, headers })
  }

  it('verifies a presigned URL until it expires, then answers AccessDenied "Request has expired"', async () => {
    const request = await presigned(900)
    const claim = readSignedRequest(request)
    expect(claim).toMatchObject({
      kind: 'presigned',
      payloadHash: 'UNSIGNED-PAYLOAD',
      expiresSeconds: 900,
      sessionToken: 'token',
    })
    if (!claim) throw new Error('unsigned')
    expect(() => verifySignature(request, claim, credentials.secretAccessKey)).not.toThrow()
    expect(() => checkTime(claim, NOW + 899_000)).not.toThrow()
    const expired = s3Error(() => checkTime(claim, NOW + 901_000))
    expect(expired).toMatchObject({
      code: 'AccessDenied',
      message: 'Request has expired',
      status: 403,
    })
    expect(expired.details['X-Amz-Expires']).toBe('900')
  })

  it('accepts seven days and refuses one second more', async () => {
    const week = readSignedRequest(await presigned(604_800))
    if (!week) throw new Error('unsigned')
    expect(() => checkTime(week, NOW + 604_000_000)).not.toThrow()
    const request = await presigned(900)
    const longer = {
      ...request,
      url: request.url.replace('X-Amz-Expires=900', 'X-Amz-Expires=604801'),
    }
    expect(s3Error(() => readSignedRequest(longer))).toMatchObject({
      code: 'AuthorizationQueryParametersError',
      message: 'X-Amz-Expires must be less than a week (in seconds) that is 604800',
    })
  })

  it('refuses a presigned URL whose signed parameters were changed', async () => {
    const request = await presigned(900)
    const changed = { ...request, url: request.url.replace('x-id=GetObject', 'x-id=PutObject') }
    const claim = readSignedRequest(changed)
    if (!claim) throw new Error('unsigned')
    expect(s3Error(() => verifySignature(changed, claim, credentials.secretAccessKey)).code).toBe(
      'SignatureDoesNotMatch',
    )
  })

  it('formats x-amz-date', () => {
    expect(amzDate(NOW)).toBe('20261123T090000Z')
  })
})

describe('logging presigned URLs', () => {
  it('removes the signature, session token and access key id, keeping the rest', () => {
    const url =
      '/s3/techlab/public/a.png?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIAKEY%2F20261123%2Fap-northeast-1%2Fs3%2Faws4_request&X-Amz-Security-Token=secret-token&X-Amz-Signature=abc123&x-id=GetObject'
    const logged = withoutSignedQuery(url)
    for (const secret of ['ASIAKEY', 'secret-token', 'abc123']) expect(logged).not.toContain(secret)
    expect(logged).toContain('X-Amz-Signature=[redacted]')
    expect(logged).toContain('x-id=GetObject')
  })
})
