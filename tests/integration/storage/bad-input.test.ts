import { createHash } from 'node:crypto'
import net from 'node:net'
import {
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checksumOf } from '#server/storage/checksums.ts'
import type { TestServer } from '#tests/support/test-server.ts'
import {
  BUCKET,
  expectS3Error,
  type Person,
  REGION,
  root,
  signedFetch,
  signedInUser,
  signRequest,
  startStorageServer,
} from './support.ts'

let server: TestServer
let user: Person

beforeAll(async () => {
  server = await startStorageServer()
  user = await signedInUser(server)
})
afterAll(async () => {
  await server?.close()
})

const own = (name: string) => `private/${user.identityId}/${name}`
const encodedKey = (key: string) => key.split('/').map(encodeURIComponent).join('/')

async function keysUnder(prefix: string): Promise<string[]> {
  const page = await root(server).s3.send(
    new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }),
  )
  return (page.Contents ?? []).map((entry) => String(entry.Key))
}

describe('bad keys and bucket names', () => {
  it.each([
    ['a ".." segment', 'dots/../escape.txt'],
    ['a "." segment', 'dots/./here.txt'],
    ['an empty segment (//)', 'double//slash.txt'],
    ['a control character', 'line\nbreak.txt'],
    ['a NUL', 'nul\u0000.txt'],
  ])('refuses a key with %s: InvalidArgument, nothing stored', async (_what, name) => {
    const error = await expectS3Error(
      user.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: own(name), Body: 'x' })),
      'InvalidArgument',
      400,
    )
    expect(error.message).toMatch(/must not contain/)
    expect(await keysUnder(own(''))).not.toContain(own(name))
  })

  it('takes a 1024-byte key and refuses a 1025-byte one with KeyTooLongError', async () => {
    const prefix = own('')
    const longest = `${prefix}${'k'.repeat(1024 - Buffer.byteLength(prefix) - 3)}あ`
    expect(Buffer.byteLength(longest)).toBe(1024)
    await user.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: longest, Body: 'x' }))
    await user.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: longest }))
    const error = await expectS3Error(
      user.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${longest}k`, Body: 'x' })),
      'KeyTooLongError',
      400,
    )
    expect(error.message).toBe('Your key is too long')
  })

  it('refuses an empty key: InvalidArgument for an SDK object operation, AccessDenied as a bucket request', async () => {
    const error = await expectS3Error(
      user.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: '', Body: 'x' })),
      'InvalidArgument',
      400,
    )
    expect(error.message).toBe('The object key must not be empty.')
    const raw = await signedFetch(server, {
      method: 'PUT',
      path: `/${BUCKET}/`,
      body: 'x',
      credentials: user.credentials,
    })
    expect([raw.status, raw.code]).toEqual([403, 'AccessDenied'])
  })

  it('answers InvalidBucketName for a bucket name with a slash or bad characters', async () => {
    for (const path of [`/tech%2Flab/public/a.txt`, '/Tech_Lab/public/a.txt', '/ab/public/a.txt']) {
      const response = await fetch(`${server.url}/s3${path}`)
      expect(response.status).toBe(400)
      const text = await response.text()
      expect(text).toContain('<Code>InvalidBucketName</Code>')
      expect(text).toContain('<Message>The specified bucket is not valid.</Message>')
    }
  })
})

describe('bad URLs', () => {
  it.each([
    '/s3/techlab/public/%E0%A4%A',
    '/s3/techlab/public/a%ZZ',
    '/s3/techlab?list-type=2&prefix=%ZZ',
  ])('answers InvalidURI for the malformed encoding of %s', async (path) => {
    const response = await fetch(`${server.url}${path}`)
    expect(response.status).toBe(400)
    expect(response.headers.get('x-amz-request-id')).toMatch(/^[0-9A-F]{16}$/)
    expect(await response.text()).toContain('<Code>InvalidURI</Code>')
  })
})

describe('bad bodies', () => {
  it('answers MalformedXML for a broken Complete or Delete body', async () => {
    const { UploadId } = await user.s3.send(
      new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: own('xml.bin') }),
    )
    for (const body of [
      '<CompleteMultipartUpload><Part>',
      '<CompleteMultipartUpload></CompleteMultipartUpload>',
      'not xml',
    ]) {
      const answer = await signedFetch(server, {
        method: 'POST',
        path: `/${BUCKET}/${encodedKey(own('xml.bin'))}?uploadId=${UploadId}`,
        body,
        credentials: user.credentials,
      })
      expect([answer.status, answer.code]).toEqual([400, 'MalformedXML'])
    }
    const deletion = await signedFetch(server, {
      method: 'POST',
      path: `/${BUCKET}?delete`,
      body: '<Delete><Object><Key>x</Key></Object>',
      credentials: user.credentials,
    })
    expect([deletion.status, deletion.code]).toEqual([400, 'MalformedXML'])
  })

  it('refuses a body whose CRC32, Content-MD5 or SHA-256 does not match, storing nothing', async () => {
    const key = own('digest.txt')
    const path = `/${BUCKET}/${encodedKey(key)}`
    const crc = await signedFetch(server, {
      method: 'PUT',
      path,
      body: 'the body',
      payloadHash: 'UNSIGNED-PAYLOAD',
      headers: { 'x-amz-checksum-crc32': checksumOf('CRC32', Buffer.from('another body')) },
      credentials: user.credentials,
    })
    expect([crc.status, crc.code]).toEqual([400, 'BadDigest'])
    const md5 = await signedFetch(server, {
      method: 'PUT',
      path,
      body: 'the body',
      payloadHash: 'UNSIGNED-PAYLOAD',
      headers: { 'content-md5': createHash('md5').update('another').digest('base64') },
      credentials: user.credentials,
    })
    expect([md5.status, md5.code]).toEqual([400, 'BadDigest'])
    const sha = await signedFetch(server, {
      method: 'PUT',
      path,
      body: 'the body',
      payloadHash: createHash('sha256').update('another').digest('hex'),
      credentials: user.credentials,
    })
    expect([sha.status, sha.code]).toEqual([400, 'XAmzContentSHA256Mismatch'])
    await expectS3Error(
      user.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })),
      'NotFound',
      404,
    )
  })

  it('refuses an aws-chunked body longer than x-amz-decoded-content-length, storing nothing', async () => {
    const key = own('longer.txt')
    const data = 'twelve bytes'
    const framed = `${data.length.toString(16)}\r\n${data}\r\n0\r\nx-amz-checksum-crc32:${checksumOf('CRC32', Buffer.from(data))}\r\n\r\n`
    const answer = await signedFetch(server, {
      method: 'PUT',
      path: `/${BUCKET}/${encodedKey(key)}`,
      body: framed,
      payloadHash: 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
      headers: {
        'content-encoding': 'aws-chunked',
        'x-amz-decoded-content-length': '5',
        'x-amz-trailer': 'x-amz-checksum-crc32',
      },
      credentials: user.credentials,
    })
    expect([answer.status, answer.code]).toEqual([400, 'InvalidRequest'])
    await expectS3Error(
      user.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })),
      'NotFound',
      404,
    )
  })

  it('answers EntityTooLarge before reading a body declared over 5 GiB', async () => {
    const { url, headers } = await signRequest(server, {
      method: 'PUT',
      path: `/${BUCKET}/${encodedKey(own('huge.bin'))}`,
      payloadHash: 'UNSIGNED-PAYLOAD',
      headers: { 'content-length': String(5 * 1024 ** 3 + 1) },
      credentials: user.credentials,
    })
    const { hostname, port, pathname } = new URL(url)
    const answer = await new Promise<string>((resolve, reject) => {
      let text = ''
      const socket = net.connect({ host: hostname, port: Number(port) }, () => {
        const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`)
        socket.write(`PUT ${pathname} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`)
      })
      socket.setEncoding('latin1')
      socket.on('data', (chunk) => {
        text += chunk
        if (text.includes('</Error>')) {
          socket.destroy()
          resolve(text)
        }
      })
      socket.on('error', reject)
    })
    expect(answer).toMatch(/^HTTP\/1\.1 400/)
    expect(answer).toContain('<Code>EntityTooLarge</Code>')
  })

  it('stores nothing from a body cut short when the connection drops', async () => {
    const key = own('truncated.bin')
    const { url, headers } = await signRequest(server, {
      method: 'PUT',
      path: `/${BUCKET}/${encodedKey(key)}`,
      payloadHash: 'UNSIGNED-PAYLOAD',
      headers: { 'content-length': '100000' },
      credentials: user.credentials,
    })
    const { hostname, port, pathname } = new URL(url)
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect({ host: hostname, port: Number(port) }, () => {
        const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`)
        socket.write(`PUT ${pathname} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`)
        socket.end(Buffer.alloc(50_000, 'x'))
      })
      socket.on('close', () => resolve())
      socket.on('error', reject)
      socket.resume()
    })
    await expectS3Error(
      user.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })),
      'NotFound',
      404,
    )
    expect(await keysUnder(own('truncated'))).toEqual([])
  })
})

describe('encryption options', () => {
  // A customer key (SSE-C) as the SDK takes it: 32 bytes, which it sends with their MD5.
  const customerKey = { SSECustomerAlgorithm: 'AES256', SSECustomerKey: 'k'.repeat(32) }

  it('refuses writes that ask for server-side encryption (NotImplemented), storing nothing', async () => {
    const asked: [string, Partial<ConstructorParameters<typeof PutObjectCommand>[0]>, string][] = [
      ['SSE-S3', { ServerSideEncryption: 'AES256' }, 'x-amz-server-side-encryption'],
      [
        'SSE-KMS',
        { ServerSideEncryption: 'aws:kms', SSEKMSKeyId: 'alias/site' },
        'x-amz-server-side-encryption',
      ],
      ['SSE-C', customerKey, 'x-amz-server-side-encryption-customer-algorithm'],
    ]
    for (const [name, options, headerName] of asked) {
      const key = own(`encrypted-${name}.txt`)
      const error = await expectS3Error(
        user.s3.send(
          new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'secret', ...options }),
        ),
        'NotImplemented',
        501,
      )
      expect(error.message).toMatch(/not implemented/)
      expect((error as { Header?: string }).Header).toBe(headerName)
      expect(await keysUnder(own('encrypted-'))).toEqual([])
    }
    await expectS3Error(
      user.s3.send(
        new CreateMultipartUploadCommand({
          Bucket: BUCKET,
          Key: own('encrypted-upload.bin'),
          ServerSideEncryption: 'AES256',
        }),
      ),
      'NotImplemented',
      501,
    )
  })

  it('answers InvalidArgument for an unknown encryption method', async () => {
    const error = await expectS3Error(
      user.s3.send(
        new PutObjectCommand({
          Bucket: BUCKET,
          Key: own('rot13.txt'),
          Body: 'x',
          ServerSideEncryption: 'ROT13' as 'AES256',
        }),
      ),
      'InvalidArgument',
      400,
    )
    expect(error.message).toBe('The encryption method specified is not supported')
  })

  it('refuses customer-key parameters on reads and copies of objects stored without one', async () => {
    const key = own('plain.txt')
    await user.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'plain' }))
    await expectS3Error(
      user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, ...customerKey })),
      'InvalidRequest',
      400,
    )
    const copy = (options: Partial<ConstructorParameters<typeof CopyObjectCommand>[0]>) =>
      user.s3.send(
        new CopyObjectCommand({
          Bucket: BUCKET,
          Key: own('copy.txt'),
          CopySource: `${BUCKET}/${encodedKey(key)}`,
          ...options,
        }),
      )
    await expectS3Error(
      copy({ CopySourceSSECustomerAlgorithm: 'AES256', CopySourceSSECustomerKey: 'k'.repeat(32) }),
      'InvalidRequest',
      400,
    )
    await expectS3Error(copy({ ServerSideEncryption: 'AES256' }), 'NotImplemented', 501)
    expect(await keysUnder(own('copy.txt'))).toEqual([])
    const upload = await user.s3.send(
      new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: own('parts.bin') }),
    )
    await expectS3Error(
      user.s3.send(
        new UploadPartCommand({
          Bucket: BUCKET,
          Key: own('parts.bin'),
          UploadId: upload.UploadId,
          PartNumber: 1,
          Body: 'part',
          ...customerKey,
        }),
      ),
      'InvalidRequest',
      400,
    )
    const plain = await user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
    expect(await plain.Body?.transformToString()).toBe('plain')
  })
})

describe('bad signatures and clocks', () => {
  it('answers SignatureDoesNotMatch for a wrong secret', async () => {
    const forged = new S3Client({
      region: REGION,
      endpoint: `${server.url}/s3`,
      forcePathStyle: true,
      credentials: { ...user.credentials, secretAccessKey: 'not the secret' },
      maxAttempts: 1,
    })
    await expectS3Error(
      forged.send(new PutObjectCommand({ Bucket: BUCKET, Key: own('forged'), Body: 'x' })),
      'SignatureDoesNotMatch',
      403,
    )
    await expectS3Error(
      user.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: own('forged') })),
      'NotFound',
      404,
    )
  })

  it('answers InvalidAccessKeyId for an unknown key or a missing session token', async () => {
    const { sessionToken: _, ...withoutToken } = user.credentials
    const answer = await signedFetch(server, {
      method: 'GET',
      path: `/${BUCKET}/${encodedKey(own('x'))}`,
      credentials: withoutToken,
    })
    expect([answer.status, answer.code], answer.text).toEqual([403, 'InvalidAccessKeyId'])
  })

  it('answers RequestTimeTooSkewed with ServerTime for a clock 20 minutes off', async () => {
    const answer = await signedFetch(server, {
      method: 'GET',
      path: `/${BUCKET}/${encodedKey(own('x'))}`,
      credentials: user.credentials,
      signingDate: new Date(Date.now() - 20 * 60_000),
    })
    expect([answer.status, answer.code]).toEqual([403, 'RequestTimeTooSkewed'])
    expect(answer.text).toMatch(/<ServerTime>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/ServerTime>/)
    expect(answer.text).toContain(
      '<Message>The difference between the request time and the current time is too large.</Message>',
    )
  })
})

describe('what every answer carries', () => {
  it('answers a CORS preflight without authentication, exposing ETag and the checksum headers', async () => {
    const response = await fetch(`${server.url}/s3/${BUCKET}/${encodedKey(own('a.txt'))}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://example.test',
        'access-control-request-method': 'PUT',
        'access-control-request-headers':
          'authorization, x-amz-content-sha256, x-amz-checksum-crc32',
      },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('http://example.test')
    expect(response.headers.get('access-control-allow-methods')).toContain('PUT')
    expect(response.headers.get('access-control-allow-headers')).toContain('x-amz-checksum-crc32')
    const exposed = response.headers.get('access-control-expose-headers') ?? ''
    for (const name of ['ETag', 'x-amz-checksum-crc32', 'x-amz-version-id', 'x-amz-request-id']) {
      expect(exposed).toContain(name)
    }
  })

  it('puts a request id on answers, errors and HEAD included', async () => {
    const error = await fetch(`${server.url}/s3/${BUCKET}/private/nobody/x`)
    expect(error.headers.get('x-amz-request-id')).toMatch(/^[0-9A-F]{16}$/)
    expect(error.headers.get('x-amz-id-2')).toBeTruthy()
    const text = await error.text()
    expect(text).toContain(`<RequestId>${error.headers.get('x-amz-request-id')}</RequestId>`)
    const head = await fetch(`${server.url}/s3/${BUCKET}/private/nobody/x`, { method: 'HEAD' })
    expect(head.status).toBe(403)
    expect(head.headers.get('x-amz-request-id')).toMatch(/^[0-9A-F]{16}$/)
    expect(await head.text()).toBe('')
  })
})
