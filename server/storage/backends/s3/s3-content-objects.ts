import { type Hash, randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { PassThrough, type Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  type S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { batchPerTurn } from '#server/storage/backends/indexed/batch-per-turn.ts'
import {
  type ContentReader,
  type ContentStore,
  contentWriters,
} from '#server/storage/backends/indexed/content-store.ts'

export type S3ContentLocation = {
  client: S3Client
  /** The bucket of the S3-compatible engine that holds the content objects. */
  bucket: string
  /** Key prefix of the content objects in that bucket; the store owns everything below it. */
  prefix: string
}

const CONTENT_ID = /^[0-9a-f]{32}$/
const DELETE_OBJECTS_MAX_KEYS = 1000

/**
 * Content in an S3-compatible bucket: one object per stored object or part, at
 * `{prefix}{random id}`, never at the site's key. An S3 PUT (or a multipart upload, for large
 * bodies of unknown length) is itself all-or-nothing, so there is no temporary name; an
 * interrupted multipart upload is what `removeLeftovers` aborts.
 */
export function createS3ContentObjects(location: S3ContentLocation): ContentStore {
  // Long by design: a factory whose returned methods share its private state; each method is short.
  const { client, bucket } = location
  const keyOf = (id: string) => {
    if (!CONTENT_ID.test(id)) throw new Error(`Not a content id: ${id}`)
    return `${location.prefix}${id}`
  }
  const get = (id: string, range?: { start: number; end: number }) =>
    client.send(
      new GetObjectCommand({
        Bucket: bucket,
        Key: keyOf(id),
        ...(range && { Range: `bytes=${range.start}-${range.end}` }),
      }),
    )

  // A round of removals (durable-removals.ts) comes all at once: one DeleteObjects request per
  // thousand, S3's most, not one request each, which would also queue past the client's sockets.
  const remove = batchPerTurn(async (ids: string[]) => {
    const failures = new Map<string, Error>()
    for (let start = 0; start < ids.length; start += DELETE_OBJECTS_MAX_KEYS) {
      const chunk = ids.slice(start, start + DELETE_OBJECTS_MAX_KEYS)
      const keys = new Map(chunk.map((id) => [keyOf(id), id]))
      const deleted = await client
        .send(
          new DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: [...keys.keys()].map((Key) => ({ Key })), Quiet: true },
          }),
        )
        .catch((error: Error) => error)
      if (deleted instanceof Error) {
        for (const id of chunk) failures.set(id, deleted)
        continue
      }
      for (const error of deleted.Errors ?? []) {
        const id = error.Key === undefined ? undefined : keys.get(error.Key)
        if (id) failures.set(id, new Error(`${error.Code}: ${error.Message}`))
      }
    }
    return failures
  })

  async function write(source: AsyncIterable<Uint8Array>, md5: Hash | undefined) {
    const fileId = randomBytes(16).toString('hex')
    let size = 0
    const body = new PassThrough()
    const uploader = new Upload({
      client,
      params: { Bucket: bucket, Key: keyOf(fileId), Body: body },
      leavePartsOnError: false,
    })
    const uploaded = uploader.done().catch((error: unknown) => {
      // The upload stopped reading: stop feeding it.
      body.destroy(error instanceof Error ? error : new Error(String(error)))
      throw error
    })
    const fed = (async () => {
      try {
        for await (const chunk of source) {
          md5?.update(chunk)
          size += chunk.byteLength
          if (!body.write(chunk) && !body.destroyed) await once(body, 'drain')
        }
        body.end()
      } catch (error) {
        body.destroy(error instanceof Error ? error : new Error(String(error)))
        throw error
      }
    })()
    const [upload, feeding] = await Promise.allSettled([uploaded, fed])
    if (feeding.status === 'rejected') {
      // The body failed: whatever reached the engine must not stay.
      if (upload.status === 'fulfilled') await remove(fileId)
      throw feeding.reason
    }
    if (upload.status === 'rejected') throw upload.reason
    return { fileId, size }
  }

  return {
    ...contentWriters(write),
    async open(id): Promise<ContentReader | undefined> {
      let whole: GetObjectCommandOutput
      try {
        whole = await get(id)
      } catch (error) {
        if (isNotFound(error)) return undefined
        throw error
      }
      // The response already under way is the snapshot: the engine keeps sending these bytes
      // even if the content object is removed meanwhile.
      const held = whole.Body as Readable
      return {
        read(range) {
          if (!range) return held
          const out = new PassThrough()
          get(id, range).then(
            (ranged) => {
              held.destroy()
              pipeline(ranged.Body as Readable, out).catch(() => {})
            },
            (error: unknown) => {
              if (!isNotFound(error)) {
                held.destroy()
                out.destroy(error instanceof Error ? error : new Error(String(error)))
                return
              }
              // Removed since it was opened: cut the range from the held response.
              pipeline(held, byteRange(range), out).catch(() => {})
            },
          )
          return out
        },
      }
    },
    remove,
    // The client is the caller's.
    async close() {},
    async removeLeftovers(referenced) {
      const leftovers = await listS3Leftovers(location, referenced)
      for (const key of leftovers.objects) {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))
      }
      for (const { key, uploadId } of leftovers.uploads) {
        await client.send(
          new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }),
        )
      }
      return leftovers.objects.length + leftovers.uploads.length
    },
  }
}

/** Content objects no index row names, and unfinished multipart uploads under the prefix. */
export async function listS3Leftovers(
  { client, bucket, prefix }: S3ContentLocation,
  referenced: ReadonlySet<string>,
): Promise<{ objects: string[]; uploads: { key: string; uploadId: string }[] }> {
  const objects: string[] = []
  let continuationToken: string | undefined
  do {
    const page = await client.send(
      new ListObjectsV2Command({
        Bucket: bucket,
        Prefix: prefix,
        ContinuationToken: continuationToken,
      }),
    )
    for (const { Key } of page.Contents ?? []) {
      const id = Key?.slice(prefix.length)
      if (Key && id && CONTENT_ID.test(id) && !referenced.has(id)) objects.push(Key)
    }
    continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
  } while (continuationToken)

  const uploads: { key: string; uploadId: string }[] = []
  let keyMarker: string | undefined
  let uploadIdMarker: string | undefined
  for (;;) {
    const page = await client
      .send(
        new ListMultipartUploadsCommand({
          Bucket: bucket,
          Prefix: prefix,
          KeyMarker: keyMarker,
          UploadIdMarker: uploadIdMarker,
        }),
      )
      .catch((error: unknown) => {
        // An engine that cannot list uploads (our own endpoint) must expire them itself.
        if (error instanceof S3ServiceException && error.name === 'NotImplemented') return undefined
        throw error
      })
    if (!page) return { objects, uploads }
    for (const { Key, UploadId } of page.Uploads ?? []) {
      if (Key && UploadId) uploads.push({ key: Key, uploadId: UploadId })
    }
    if (!page.IsTruncated) return { objects, uploads }
    keyMarker = page.NextKeyMarker
    uploadIdMarker = page.NextUploadIdMarker
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404
}

/** Passes bytes `start`..`end` (inclusive) of the stream through, and ends there. */
function byteRange({ start, end }: { start: number; end: number }): Transform {
  let offset = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const from = Math.max(0, start - offset)
      const to = Math.min(chunk.length, end + 1 - offset)
      offset += chunk.length
      callback(null, from < to ? chunk.subarray(from, to) : undefined)
    },
  })
}
