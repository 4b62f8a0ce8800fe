import type { Selectable } from 'kysely'
import { z } from 'zod'
import type { StorageObjectsTable, StoragePartsTable, StorageUploadsTable } from '#db/schema.ts'
import type {
  NewObject,
  ObjectInfo,
  PartInfo,
  StoredChecksum,
  UploadInfo,
} from '#server/storage/backends/object-store.ts'

// The index keeps headers, metadata, checksums and part sizes as JSON text; these schemas check
// what comes back so a damaged row fails loudly instead of reaching a client.

const headersSchema = z.object({
  contentType: z.string().optional(),
  contentEncoding: z.string().optional(),
  contentDisposition: z.string().optional(),
  contentLanguage: z.string().optional(),
  cacheControl: z.string().optional(),
  expires: z.string().optional(),
})
const metadataSchema = z.record(z.string(), z.string())
const checksumSchema = z.object({
  algorithm: z.enum(['CRC32', 'CRC32C', 'CRC64NVME', 'SHA1', 'SHA256']),
  value: z.string(),
  type: z.enum(['FULL_OBJECT', 'COMPOSITE']),
})
const partSizesSchema = z.array(z.number().int().nonnegative())
const partChecksumsSchema = z.array(checksumSchema.nullable())
const partFilesSchema = z.array(z.string().regex(/^[0-9a-f]{32}$/)).min(2)

type ObjectRow = Selectable<StorageObjectsTable>
type UploadRow = Selectable<StorageUploadsTable>
type PartRow = Selectable<StoragePartsTable>

export const checksumColumn = (checksum: StoredChecksum | undefined) =>
  checksum ? JSON.stringify(checksum) : null

/** `part_files` for an object read from these parts' items (one item needs none). */
export const partFilesColumn = (items: string[] | undefined) =>
  items && items.length > 1 ? JSON.stringify(items) : null

/** The content items an object row names, in order: its one item, or its parts'. */
export const contentItemsOf = (row: { file_id: string; part_files: string | null }): string[] =>
  row.part_files === null ? [row.file_id] : partFilesSchema.parse(JSON.parse(row.part_files))

export const describedColumns = (object: NewObject) => ({
  headers: JSON.stringify(object.headers),
  metadata: JSON.stringify(object.metadata),
  owner: object.owner,
})

function described(row: { headers: string; metadata: string; owner: string }): NewObject {
  return {
    headers: headersSchema.parse(JSON.parse(row.headers)),
    metadata: metadataSchema.parse(JSON.parse(row.metadata)),
    owner: row.owner,
  }
}

const storedChecksum = (column: string | null) =>
  column === null ? undefined : checksumSchema.parse(JSON.parse(column))

export function objectInfo(row: ObjectRow): ObjectInfo {
  const checksum = storedChecksum(row.checksum)
  return {
    ...described(row),
    bucket: row.bucket,
    key: row.key,
    size: Number(row.size),
    etag: row.etag,
    lastModified: new Date(Number(row.last_modified)),
    ...(checksum && { checksum }),
    ...(row.part_sizes !== null && {
      partSizes: partSizesSchema.parse(JSON.parse(row.part_sizes)),
    }),
    ...(row.part_checksums !== null && {
      partChecksums: partChecksumsSchema.parse(JSON.parse(row.part_checksums)),
    }),
    ...(row.upload_id !== null && { uploadId: row.upload_id }),
  }
}

export function uploadInfo(row: UploadRow): UploadInfo {
  return {
    ...described(row),
    bucket: row.bucket,
    key: row.key,
    uploadId: row.upload_id,
    initiated: new Date(Number(row.initiated)),
  }
}

export function partInfo(row: PartRow): PartInfo {
  const checksum = storedChecksum(row.checksum)
  return {
    partNumber: Number(row.part_number),
    size: Number(row.size),
    etag: row.etag,
    lastModified: new Date(Number(row.last_modified)),
    ...(checksum && { checksum }),
  }
}
