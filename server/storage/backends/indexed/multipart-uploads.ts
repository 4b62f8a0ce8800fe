import { createHash, randomBytes } from 'node:crypto'
import { crc32 } from 'node:zlib'
import type { Kysely, Selectable } from 'kysely'
import type { DB, StoragePartsTable } from '#db/schema.ts'
import {
  type CompletedPart,
  MAX_PART_NUMBER,
  MIN_PART_SIZE,
  type ObjectStore,
  type PartInfo,
  type StoredChecksum,
} from '#server/storage/backends/object-store.ts'
import { badDigest } from '#server/storage/checksums.ts'
import { noSuchUpload, S3Error } from '#server/storage/s3-error.ts'
import { checksumColumn, describedColumns, objectInfo, partInfo, uploadInfo } from './index-rows.ts'
import { listUploads } from './list-uploads.ts'
import {
  commitObject,
  findObjectRow,
  objectLockName,
  quotedEtag,
  requireBucket,
  type StoreContext,
  switchContent,
} from './object-index.ts'

type MultipartUploads = Pick<
  ObjectStore,
  | 'createMultipartUpload'
  | 'getMultipartUpload'
  | 'uploadPart'
  | 'listParts'
  | 'completeMultipartUpload'
  | 'abortMultipartUpload'
  | 'listMultipartUploads'
  | 'expireUploads'
>

/**
 * Multipart uploads: each part is its own content item, indexed in `storage_parts` and never
 * visible as an object. Complete commits an object row naming the chosen parts' items, in the
 * transaction that removes the upload: the bytes are not copied (docs/decisions/010).
 */
export function createMultipartUploads(context: StoreContext): MultipartUploads {
  // Long by design: a factory whose returned methods share its private state; each method is short.
  const { db, files, withKeyLock } = context

  async function findUpload(bucket: string, key: string, uploadId: string) {
    const row = await db
      .selectFrom('storage_uploads')
      .selectAll()
      .where('upload_id', '=', uploadId)
      .where('bucket', '=', bucket)
      .where('key', '=', key)
      .executeTakeFirst()
    if (!row) await requireBucket(db, bucket)
    return row
  }

  async function requireUpload(bucket: string, key: string, uploadId: string) {
    const row = await findUpload(bucket, key, uploadId)
    if (!row) throw noSuchUpload(uploadId)
    return row
  }

  /**
   * Locks the upload's row for the rest of the transaction, answering whether it exists. A part
   * being committed and the upload being removed take this lock first, so on PostgreSQL one
   * waits for the other instead of the removal meeting a part committed meanwhile.
   */
  async function lockUpload(t: Kysely<DB>, uploadId: string): Promise<boolean> {
    const locked = await t
      .updateTable('storage_uploads')
      .set((eb) => ({ initiated: eb.ref('initiated') }))
      .where('upload_id', '=', uploadId)
      .executeTakeFirst()
    return locked.numUpdatedRows > 0n
  }

  /** Deletes the upload's rows in one transaction, then its part files. */
  async function removeUpload(uploadId: string, trx?: Kysely<DB>): Promise<string[]> {
    const remove = async (t: Kysely<DB>) => {
      await lockUpload(t, uploadId)
      const parts = await t
        .deleteFrom('storage_parts')
        .where('upload_id', '=', uploadId)
        .returning('file_id')
        .execute()
      await t.deleteFrom('storage_uploads').where('upload_id', '=', uploadId).execute()
      return parts.map((part) => part.file_id)
    }
    return trx ? remove(trx) : db.transaction().execute(remove)
  }

  async function abort(bucket: string, key: string, uploadId: string): Promise<void> {
    await withKeyLock(objectLockName(bucket, key), async () => {
      await requireUpload(bucket, key, uploadId)
      for (const fileId of await removeUpload(uploadId)) await files.remove(fileId)
    })
  }

  return {
    async createMultipartUpload(bucket, key, object) {
      await requireBucket(db, bucket)
      const row = {
        upload_id: randomBytes(24).toString('base64url'),
        bucket,
        key,
        ...describedColumns(object),
        initiated: context.now().getTime(),
      }
      await db.insertInto('storage_uploads').values(row).execute()
      return uploadInfo(row)
    },
    async getMultipartUpload(bucket, key, uploadId) {
      const row = await findUpload(bucket, key, uploadId)
      return row && uploadInfo(row)
    },
    async uploadPart(bucket, key, uploadId, partNumber, body): Promise<PartInfo> {
      if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER) {
        throw new S3Error(
          'InvalidArgument',
          `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive`,
          400,
          { ArgumentName: 'partNumber', ArgumentValue: String(partNumber) },
        )
      }
      await requireUpload(bucket, key, uploadId)
      const file = await files.write(body.stream)
      const row = {
        upload_id: uploadId,
        part_number: partNumber,
        file_id: file.fileId,
        size: file.size,
        etag: quotedEtag(file.md5),
        checksum: checksumColumn(body.checksum()),
        last_modified: context.now().getTime(),
      }
      await withKeyLock(`part\u0000${uploadId}\u0000${partNumber}`, () =>
        switchContent(context, [file.fileId], () =>
          db.transaction().execute(async (trx) => {
            if (!(await lockUpload(trx, uploadId))) throw noSuchUpload(uploadId)
            const previous = await trx
              .selectFrom('storage_parts')
              .select('file_id')
              .where('upload_id', '=', uploadId)
              .where('part_number', '=', partNumber)
              .executeTakeFirst()
            await trx
              .insertInto('storage_parts')
              .values(row)
              .onConflict((conflict) =>
                conflict.columns(['upload_id', 'part_number']).doUpdateSet(row),
              )
              .execute()
            return previous ? [previous.file_id] : []
          }),
        ),
      )
      return partInfo(row)
    },
    async listParts(bucket, key, uploadId, query) {
      const upload = await requireUpload(bucket, key, uploadId)
      const rows = await db
        .selectFrom('storage_parts')
        .selectAll()
        .where('upload_id', '=', uploadId)
        .where('part_number', '>', query.partNumberMarker ?? 0)
        .orderBy('part_number')
        .limit(query.maxParts + 1)
        .execute()
      return {
        upload: uploadInfo(upload),
        parts: rows.slice(0, query.maxParts).map(partInfo),
        isTruncated: rows.length > query.maxParts,
      }
    },
    async completeMultipartUpload(bucket, key, uploadId, completed, options = {}) {
      const { condition } = options
      return withKeyLock(objectLockName(bucket, key), async () => {
        const row = await findUpload(bucket, key, uploadId)
        if (!row) {
          // Completed already (a retry after a lost answer, or one racing it): the same answer,
          // as long as the object is still the one this upload made.
          const object = await findObjectRow(db, bucket, key)
          if (object?.upload_id === uploadId) return objectInfo(object)
          throw noSuchUpload(uploadId)
        }
        const upload = uploadInfo(row)
        const stored = await db
          .selectFrom('storage_parts')
          .selectAll()
          .where('upload_id', '=', uploadId)
          .execute()
        const chosen = chooseParts(
          uploadId,
          completed,
          new Map(stored.map((row) => [Number(row.part_number), row])),
        )
        const partFiles = chosen.map((part) => part.file_id)
        const partSizes = chosen.map((part) => Number(part.size))
        const file = {
          fileId: partFiles[0] as string,
          size: partSizes.reduce((sum, size) => sum + size, 0),
        }
        const etag = quotedEtag(
          createHash('md5')
            .update(Buffer.concat(chosen.map((part) => Buffer.from(unquoted(part.etag), 'hex'))))
            .digest(),
          chosen.length,
        )
        const chosenInfo = chosen.map(partInfo)
        const checksum = compositeChecksum(chosenInfo)
        const partChecksums = chosenInfo.map((part) => part.checksum ?? null)
        if (options.checksum && !sameChecksum(options.checksum, checksum)) {
          throw badDigest(options.checksum.algorithm)
        }
        let uploadFiles: string[] = []
        const info = await commitObject(
          context,
          bucket,
          key,
          {
            file,
            partFiles,
            etag,
            object: upload,
            ...(checksum && { checksum }),
            partSizes,
            ...(partChecksums.some(Boolean) && { partChecksums }),
            uploadId,
            ...(condition && { condition }),
          },
          async (trx) => {
            // A part replaced since it was checked: what was checked is gone.
            const current = await trx
              .selectFrom('storage_parts')
              .select(['part_number', 'file_id'])
              .where('upload_id', '=', uploadId)
              .execute()
            const now = new Map(current.map((row) => [Number(row.part_number), row.file_id]))
            for (const part of chosen) {
              if (now.get(Number(part.part_number)) !== part.file_id) {
                throw invalidPart(uploadId, Number(part.part_number), part.etag)
              }
            }
            uploadFiles = await removeUpload(uploadId, trx)
          },
        )
        // The parts left out; the chosen ones are the object's now.
        const kept = new Set(partFiles)
        for (const fileId of uploadFiles) if (!kept.has(fileId)) await files.remove(fileId)
        return info
      })
    },
    abortMultipartUpload: abort,
    async listMultipartUploads(bucket, query) {
      await requireBucket(db, bucket)
      return listUploads(db, bucket, query)
    },
    async expireUploads(startedBefore) {
      const abandoned = await db
        .selectFrom('storage_uploads')
        .select(['bucket', 'key', 'upload_id'])
        .where('initiated', '<', startedBefore.getTime())
        .execute()
      let expired = 0
      for (const upload of abandoned) {
        try {
          await abort(upload.bucket, upload.key, upload.upload_id)
          expired++
        } catch (error) {
          // Completed or aborted meanwhile: nothing left to expire.
          if (!(error instanceof S3Error && error.code === 'NoSuchUpload')) throw error
        }
      }
      return expired
    },
  }
}

type PartRow = Selectable<StoragePartsTable>

/** S3's checks on a Complete request, in S3's order of precedence. */
function chooseParts(
  uploadId: string,
  completed: CompletedPart[],
  stored: Map<number, PartRow>,
): PartRow[] {
  if (completed.length === 0) {
    throw new S3Error(
      'MalformedXML',
      'The XML you provided was not well-formed or did not validate against our published schema',
    )
  }
  for (let i = 1; i < completed.length; i++) {
    if ((completed[i]?.partNumber ?? 0) <= (completed[i - 1]?.partNumber ?? 0)) {
      throw new S3Error(
        'InvalidPartOrder',
        'The list of parts was not in ascending order. The parts list must be specified in order by part number.',
        400,
        { UploadId: uploadId },
      )
    }
  }
  const chosen = completed.map(({ partNumber, etag, checksum }) => {
    const part = stored.get(partNumber)
    if (!part || unquoted(part.etag) !== unquoted(etag))
      throw invalidPart(uploadId, partNumber, etag)
    if (checksum && !sameChecksum(checksum, partInfo(part).checksum)) {
      throw invalidPart(uploadId, partNumber, etag)
    }
    return part
  })
  chosen.forEach((part, index) => {
    if (index < chosen.length - 1 && Number(part.size) < MIN_PART_SIZE) {
      throw new S3Error(
        'EntityTooSmall',
        'Your proposed upload is smaller than the minimum allowed size',
        400,
        {
          ProposedSize: String(part.size),
          MinSizeAllowed: String(MIN_PART_SIZE),
          PartNumber: String(part.part_number),
          ETag: unquoted(part.etag),
        },
      )
    }
  })
  return chosen
}

const invalidPart = (uploadId: string, partNumber: number, etag: string) =>
  new S3Error(
    'InvalidPart',
    "One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not have matched the part's entity tag.",
    400,
    { UploadId: uploadId, PartNumber: String(partNumber), ETag: unquoted(etag) },
  )

/** A checksum a client sent against a stored one; `…-N` may be left off a composite's value. */
const sameChecksum = (
  sent: { algorithm: string; value: string },
  stored: StoredChecksum | undefined,
) =>
  stored !== undefined &&
  sent.algorithm === stored.algorithm &&
  (sent.value === stored.value || sent.value === stored.value.replace(/-\d+$/, ''))

const unquoted = (etag: string) => etag.trim().replace(/^"|"$/g, '').toLowerCase()

/**
 * S3's composite checksum of a multipart object: the checksum of the concatenated binary part
 * checksums, with `-N`. Only when every part has one of the same algorithm that Node computes.
 */
function compositeChecksum(parts: PartInfo[]): StoredChecksum | undefined {
  const algorithm = parts[0]?.checksum?.algorithm
  if (!algorithm || parts.some((part) => part.checksum?.algorithm !== algorithm)) return undefined
  const joined = Buffer.concat(
    parts.map((part) => Buffer.from(part.checksum?.value ?? '', 'base64')),
  )
  let digest: Buffer
  if (algorithm === 'CRC32') {
    digest = Buffer.alloc(4)
    digest.writeUInt32BE(crc32(joined))
  } else if (algorithm === 'SHA1' || algorithm === 'SHA256') {
    digest = createHash(algorithm.toLowerCase()).update(joined).digest()
  } else {
    return undefined
  }
  return { algorithm, value: `${digest.toString('base64')}-${parts.length}`, type: 'COMPOSITE' }
}
