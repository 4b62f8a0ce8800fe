import {
  CreateBucketCommand,
  DeleteBucketCommand,
  HeadBucketCommand,
  ListBucketsCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestServer } from '#tests/support/test-server.ts'
import {
  BUCKET,
  expectS3Error,
  type Person,
  root,
  signedInUser,
  startStorageServer,
} from './support.ts'

let server: TestServer
let user: Person
let base: string
const NAMES = ['a.txt', 'b/1.txt', 'b/2.txt', 'c d.txt', 'e/f/g.txt', 'z.txt']

beforeAll(async () => {
  server = await startStorageServer()
  user = await signedInUser(server)
  base = `protected/${user.identityId}/list/`
  for (const name of NAMES) {
    await user.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${base}${name}`, Body: name }))
  }
})
afterAll(async () => {
  await server?.close()
})

const strip = (keys: (string | undefined)[] | undefined) =>
  (keys ?? []).map((key) => key?.slice(base.length))

describe('ListObjectsV2', () => {
  it('lists under a prefix with a delimiter: keys and common prefixes', async () => {
    const page = await user.s3.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: base, Delimiter: '/' }),
    )
    expect(strip(page.Contents?.map((c) => c.Key))).toEqual(['a.txt', 'c d.txt', 'z.txt'])
    expect(strip(page.CommonPrefixes?.map((p) => p.Prefix))).toEqual(['b/', 'e/'])
    expect(page).toMatchObject({
      KeyCount: 5,
      IsTruncated: false,
      Delimiter: '/',
      Prefix: base,
      MaxKeys: 1000,
    })
    expect(page.Contents?.[0]).toMatchObject({ Size: 5, StorageClass: 'STANDARD' })
    expect(page.Contents?.[0]?.Owner).toBeUndefined()
  })

  it('pages with max-keys and continuation tokens, without gaps or repeats', async () => {
    const seen: string[] = []
    let token: string | undefined
    let pages = 0
    do {
      const page = await user.s3.send(
        new ListObjectsV2Command({
          Bucket: BUCKET,
          Prefix: base,
          MaxKeys: 2,
          ContinuationToken: token,
        }),
      )
      seen.push(...strip(page.Contents?.map((c) => c.Key)).map(String))
      expect(page.KeyCount).toBeLessThanOrEqual(2)
      token = page.NextContinuationToken
      expect(Boolean(token)).toBe(page.IsTruncated)
      pages += 1
    } while (token)
    expect(seen).toEqual(NAMES)
    expect(pages).toBe(3)
  })

  it('starts after a key, fetches owners, and url-encodes keys on request', async () => {
    const page = await user.s3.send(
      new ListObjectsV2Command({
        Bucket: BUCKET,
        Prefix: base,
        StartAfter: `${base}b/2.txt`,
        FetchOwner: true,
        EncodingType: 'url',
      }),
    )
    expect(page.EncodingType).toBe('url')
    expect(page.StartAfter).toBe(`${base}b/2.txt`.replace(':', '%3A'))
    const keys = page.Contents?.map((c) => decodeURIComponent(String(c.Key).replace(/\+/g, ' ')))
    expect(strip(keys)).toEqual(['c d.txt', 'e/f/g.txt', 'z.txt'])
    expect(page.Contents?.some((c) => c.Key?.endsWith('c+d.txt'))).toBe(true)
    expect(page.Contents?.[0]?.Owner?.ID).toBe(user.identityId)
  })

  it('answers max-keys 0 with nothing, and refuses a forged continuation token', async () => {
    const empty = await user.s3.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: base, MaxKeys: 0 }),
    )
    expect(empty).toMatchObject({ KeyCount: 0, IsTruncated: false })
    await expectS3Error(
      user.s3.send(
        new ListObjectsV2Command({
          Bucket: BUCKET,
          Prefix: base,
          ContinuationToken: 'not-a-token',
        }),
      ),
      'InvalidArgument',
      400,
    )
  })
})

describe('ListObjects (v1)', () => {
  it('pages with marker and NextMarker (given with a delimiter), owners included', async () => {
    const first = await user.s3.send(
      new ListObjectsCommand({ Bucket: BUCKET, Prefix: base, Delimiter: '/', MaxKeys: 3 }),
    )
    expect(strip(first.Contents?.map((c) => c.Key))).toEqual(['a.txt', 'c d.txt'])
    expect(strip(first.CommonPrefixes?.map((p) => p.Prefix))).toEqual(['b/'])
    expect(first.IsTruncated).toBe(true)
    expect(first.Contents?.[0]?.Owner?.ID).toBe(user.identityId)
    const second = await user.s3.send(
      new ListObjectsCommand({
        Bucket: BUCKET,
        Prefix: base,
        Delimiter: '/',
        Marker: first.NextMarker,
      }),
    )
    expect(strip(second.Contents?.map((c) => c.Key))).toEqual(['z.txt'])
    expect(strip(second.CommonPrefixes?.map((p) => p.Prefix))).toEqual(['e/'])
    expect(second.IsTruncated).toBe(false)
  })

  it('lists without a delimiter after a marker', async () => {
    const page = await user.s3.send(
      new ListObjectsCommand({ Bucket: BUCKET, Prefix: `${base}b/`, Marker: `${base}b/1.txt` }),
    )
    expect(strip(page.Contents?.map((c) => c.Key))).toEqual(['b/2.txt'])
    expect(page.Marker).toBe(`${base}b/1.txt`)
  })
})

describe('ListObjectVersions (unversioned)', () => {
  it('answers every object as its one version, "null", latest, with key markers', async () => {
    const first = await user.s3.send(
      new ListObjectVersionsCommand({ Bucket: BUCKET, Prefix: base, MaxKeys: 4 }),
    )
    expect(strip(first.Versions?.map((v) => v.Key))).toEqual(NAMES.slice(0, 4))
    expect(first.Versions?.every((v) => v.VersionId === 'null' && v.IsLatest === true)).toBe(true)
    expect(first).toMatchObject({ IsTruncated: true, NextVersionIdMarker: 'null' })
    const second = await user.s3.send(
      new ListObjectVersionsCommand({
        Bucket: BUCKET,
        Prefix: base,
        KeyMarker: first.NextKeyMarker,
        VersionIdMarker: first.NextVersionIdMarker,
      }),
    )
    expect(strip(second.Versions?.map((v) => v.Key))).toEqual(NAMES.slice(4))
  })
})

describe('bucket operations', () => {
  it('lets the root credential create, head, list and delete buckets', async () => {
    const admin = root(server).s3
    await admin.send(new CreateBucketCommand({ Bucket: 'course-media' }))
    await expectS3Error(
      admin.send(new CreateBucketCommand({ Bucket: 'course-media' })),
      'BucketAlreadyOwnedByYou',
      409,
    )
    await admin.send(new HeadBucketCommand({ Bucket: 'course-media' }))
    const { Buckets } = await admin.send(new ListBucketsCommand({}))
    expect(Buckets?.map((b) => b.Name).sort()).toEqual(['course-media', BUCKET])
    await admin.send(new PutObjectCommand({ Bucket: 'course-media', Key: 'x', Body: 'x' }))
    await expectS3Error(
      admin.send(new DeleteBucketCommand({ Bucket: 'course-media' })),
      'BucketNotEmpty',
      409,
    )
    await admin.send(new ListObjectsV2Command({ Bucket: 'course-media' }))
    await root(server).s3.send(
      new (await import('@aws-sdk/client-s3')).DeleteObjectCommand({
        Bucket: 'course-media',
        Key: 'x',
      }),
    )
    await admin.send(new DeleteBucketCommand({ Bucket: 'course-media' }))
    await expectS3Error(
      admin.send(new HeadBucketCommand({ Bucket: 'course-media' })),
      'NotFound',
      404,
    )
    await expectS3Error(
      admin.send(new ListObjectsV2Command({ Bucket: 'course-media' })),
      'NoSuchBucket',
      404,
    )
  })

  it('refuses bucket operations to everyone else', async () => {
    await expectS3Error(
      user.s3.send(new CreateBucketCommand({ Bucket: 'mine' })),
      'AccessDenied',
      403,
    )
    await expectS3Error(user.s3.send(new ListBucketsCommand({})), 'AccessDenied', 403)
    await expectS3Error(
      user.s3.send(new DeleteBucketCommand({ Bucket: BUCKET })),
      'AccessDenied',
      403,
    )
    // HEAD answers carry no error document: the SDK sees the status only.
    await expectS3Error(user.s3.send(new HeadBucketCommand({ Bucket: BUCKET })), undefined, 403)
  })
})
