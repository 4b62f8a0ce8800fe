import { spawn } from 'node:child_process'
import { Agent } from 'node:http'
import path from 'node:path'
import {
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, type Person, REGION, ROOT, signedInUser, startStorageServer } from './support.ts'

// The endpoint at the root of its own port (STORAGE_LISTEN_PORT), path style and virtual-hosted
// style under STORAGE_HOSTNAME, through the AWS SDK v3 and through boto3 (tests/boto3).

const HOSTNAME = 's3.techlab.test'
let server: TestServer
let user: Person
let other: Person

beforeAll(async () => {
  server = await startStorageServer({ STORAGE_LISTEN_PORT: '0', STORAGE_HOSTNAME: HOSTNAME })
  user = await signedInUser(server)
  other = await signedInUser(server)
})
afterAll(async () => {
  await server?.close()
})

const storageUrl = () => {
  if (!server.storageUrl) throw new Error('the storage origin is not listening')
  return server.storageUrl
}

/** An SDK client of the storage origin; `{anything}.{HOSTNAME}` resolves to this machine. */
function originClient(person: Person, style: 'path' | 'virtual') {
  const port = new URL(storageUrl()).port
  const agent = new Agent({
    lookup: (_host, options, callback) =>
      options.all
        ? callback(null, [{ address: '127.0.0.1', family: 4 }])
        : callback(null, '127.0.0.1', 4),
  })
  return new S3Client({
    region: REGION,
    endpoint: style === 'path' ? storageUrl() : `http://${HOSTNAME}:${port}`,
    forcePathStyle: style === 'path',
    credentials: person.credentials,
    maxAttempts: 1,
    requestHandler: { httpAgent: agent },
  })
}

describe('the storage origin through the AWS SDK v3', () => {
  for (const style of ['path', 'virtual'] as const) {
    it(`serves ${style} style at the root of its port`, async () => {
      const s3 = originClient(user, style)
      const urls: string[] = []
      s3.middlewareStack.add(
        (next) => async (args) => {
          const request = args.request as { hostname: string; path: string }
          urls.push(`${request.hostname}${request.path}`)
          return next(args)
        },
        { step: 'finalizeRequest' },
      )
      const key = `private/${user.identityId}/origin-${style}.txt`
      await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: style }))
      const got = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
      expect(await got.Body?.transformToString()).toBe(style)
      const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: key }))
      expect(listed.Contents?.map((item) => item.Key)).toEqual([key])
      // The bucket travels in the path, or in the host name (the identity id's ':' is encoded).
      const encodedKey = key.replace(/:/g, '%3A')
      expect(urls[0]).toBe(
        style === 'path'
          ? `127.0.0.1/${BUCKET}/${encodedKey}`
          : `${BUCKET}.${HOSTNAME}/${encodedKey}`,
      )
    })
  }

  it('is the same store as the site’s /s3', async () => {
    const key = `private/${user.identityId}/both.txt`
    await originClient(user, 'path').send(
      new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'one store' }),
    )
    const got = await user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
    expect(await got.Body?.transformToString()).toBe('one store')
  })

  it('answers anything else as S3 does, not with the site', async () => {
    const page = await fetch(`${storageUrl()}/courses`)
    expect(page.status).toBe(403)
    expect(await page.text()).toContain('<Code>AccessDenied</Code>')
    const unroutable = await fetch(`${storageUrl()}/${BUCKET}/%E0%A4%A`)
    expect(unroutable.status).toBe(400)
    expect(await unroutable.text()).toContain('<Code>InvalidURI</Code>')
  })

  it('refuses STORAGE_HOSTNAME without STORAGE_LISTEN_PORT', () => {
    expect(() => loadConfig({ STORAGE_HOSTNAME: HOSTNAME })).toThrow(/STORAGE_LISTEN_PORT/)
    expect(() =>
      loadConfig({ STORAGE_LISTEN_PORT: '9000', STORAGE_HOSTNAME: 'Not A Host' }),
    ).toThrow(/STORAGE_HOSTNAME/)
  })
})

describe('the S3 endpoint through boto3 (tests/boto3/test_s3_endpoint.py)', () => {
  it('passes every boto3 test against the storage origin', { timeout: 120_000 }, async () => {
    const script = path.resolve(import.meta.dirname, '../../boto3/test_s3_endpoint.py')
    const environment = {
      ...process.env,
      S3_ENDPOINT: storageUrl(),
      S3_HOSTNAME: HOSTNAME,
      S3_BUCKET: BUCKET,
      S3_REGION: REGION,
      ROOT_KEY: ROOT.accessKeyId,
      ROOT_SECRET: ROOT.secretAccessKey,
      ...credentialsOf('USER', user),
      ...credentialsOf('OTHER', other),
    }
    const { code, output } = await new Promise<{ code: number | null; output: string }>(
      (resolve, reject) => {
        const child = spawn('python3', [script], { env: environment })
        let output = ''
        child.stdout.on('data', (data) => {
          output += data
        })
        child.stderr.on('data', (data) => {
          output += data
        })
        child.once('error', reject)
        child.once('close', (exit) => resolve({ code: exit, output }))
      },
    )
    const summary = /(\d+) passed, (\d+) failed/.exec(output)
    console.log(summary ? `boto3: ${summary[0]}` : output)
    expect({ code, summary: summary?.[0] }, output).toEqual({
      code: 0,
      summary: expect.stringMatching(/^\d+ passed, 0 failed$/),
    })
  })
})

function credentialsOf(who: string, person: Person) {
  return {
    [`${who}_KEY`]: person.credentials.accessKeyId,
    [`${who}_SECRET`]: person.credentials.secretAccessKey,
    [`${who}_TOKEN`]: person.credentials.sessionToken ?? '',
    [`${who}_ID`]: person.identityId,
  }
}
