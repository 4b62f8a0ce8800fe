import type { Readable } from 'node:stream'

/**
 * Where object bytes and their metadata live, behind the S3 protocol layer
 * (`server/storage/`). Two implementations: `fs` (local disk, the embedded default) and `s3`
 * (a real S3-compatible engine through @aws-sdk/client-s3). The protocol layer authenticates,
 * enforces access levels and verifies payloads; a store only keeps what it is given, atomically.
 * Every failure a client should see is an `S3Error` (../s3-error.ts).
 */
export interface ObjectStore {
  createBucket(bucket: string): Promise<void>
  /** `BucketNotEmpty` while objects or multipart uploads remain. */
  deleteBucket(bucket: string): Promise<void>
  bucketExists(bucket: string): Promise<boolean>
  listBuckets(): Promise<BucketInfo[]>

  /**
   * Stores the body under the key, replacing any object there only once the whole body has
   * arrived and `body.stream` ended without error: a failed or aborted body stores nothing.
   */
  putObject(
    bucket: string,
    key: string,
    body: IncomingBody,
    object: NewObject,
    condition?: WriteCondition,
  ): Promise<ObjectInfo>
  headObject(bucket: string, key: string): Promise<ObjectInfo | undefined>
  /** A snapshot: reads see the object as it was when opened, even if it is replaced meanwhile. */
  openObject(bucket: string, key: string): Promise<OpenedObject | undefined>
  /** `metadata: 'COPY'` keeps the source's headers and metadata (S3's COPY directive). */
  copyObject(source: ObjectRef, target: ObjectRef, object: CopiedObject): Promise<ObjectInfo>
  /** Deleting a missing key succeeds, as in S3. */
  deleteObject(bucket: string, key: string): Promise<void>
  listObjects(bucket: string, query: ListQuery): Promise<ListPage>

  createMultipartUpload(bucket: string, key: string, object: NewObject): Promise<UploadInfo>
  getMultipartUpload(bucket: string, key: string, uploadId: string): Promise<UploadInfo | undefined>
  /** Replaces an earlier part with the same number; parts stay apart from objects until Complete. */
  uploadPart(
    bucket: string,
    key: string,
    uploadId: string,
    partNumber: number,
    body: IncomingBody,
  ): Promise<PartInfo>
  listParts(bucket: string, key: string, uploadId: string, query: PartsQuery): Promise<PartsPage>
  /**
   * `InvalidPart`, `InvalidPartOrder`, `EntityTooSmall` (parts but the last under 5 MiB). Once
   * completed, completing again answers the object while it is still the one this upload made
   * (a retry after a lost answer); otherwise `NoSuchUpload`.
   */
  completeMultipartUpload(
    bucket: string,
    key: string,
    uploadId: string,
    parts: CompletedPart[],
    options?: CompleteOptions,
  ): Promise<ObjectInfo>
  abortMultipartUpload(bucket: string, key: string, uploadId: string): Promise<void>
  /** Unfinished uploads in (key, upload id) order; a delimiter rolls keys up as in listObjects. */
  listMultipartUploads(bucket: string, query: UploadsQuery): Promise<UploadsPage>

  /** Start-up: removes what interrupted writes left behind. */
  recover(): Promise<void>
  /** Removes multipart uploads started before the given time; answers how many. */
  expireUploads(startedBefore: Date): Promise<number>
  /**
   * Finishes what the store defers: removing the content of replaced and deleted objects once
   * the index no longer naming it is durable. `close()` does it too.
   */
  settle(): Promise<void>
  close(): Promise<void>
}

export type BucketInfo = { name: string; createdAt: Date }
export type ObjectRef = { bucket: string; key: string }

/** The headers S3 stores with an object and answers on GET and HEAD. */
export type ObjectHeaders = {
  contentType?: string
  contentEncoding?: string
  contentDisposition?: string
  contentLanguage?: string
  cacheControl?: string
  expires?: string
}

export type ChecksumAlgorithm = 'CRC32' | 'CRC32C' | 'CRC64NVME' | 'SHA1' | 'SHA256'
export type StoredChecksum = {
  algorithm: ChecksumAlgorithm
  /** Base64, as in the `x-amz-checksum-*` headers (with `-N` for a composite). */
  value: string
  type: 'FULL_OBJECT' | 'COMPOSITE'
}

export type IncomingBody = {
  /**
   * The payload. The protocol layer makes this stream error (with an `S3Error`) when the bytes
   * fail verification (length, signatures, checksums), so the store must then keep nothing.
   */
  stream: Readable
  /** Read once the stream has ended: the verified checksum the client sent, if any. */
  checksum(): StoredChecksum | undefined
}

export type NewObject = {
  headers: ObjectHeaders
  /** `x-amz-meta-*` without the prefix, names in lowercase. */
  metadata: Record<string, string>
  /** Who wrote it: an identity id, or `root` for the configured root credential. */
  owner: string
}

export type CopiedObject =
  | { metadata: 'COPY'; owner: string }
  | { metadata: 'REPLACE'; object: NewObject }

export type ObjectInfo = NewObject & {
  bucket: string
  key: string
  size: number
  /** Quoted, as S3 sends it: `"md5hex"`, or `"md5(part md5s)hex-N"` after multipart. */
  etag: string
  lastModified: Date
  checksum?: StoredChecksum
  /** Sizes of the parts of a multipart object, in order (for GET with `partNumber`). */
  partSizes?: number[]
  /** The parts' checksums, in order, when a multipart object's parts had them. */
  partChecksums?: (StoredChecksum | null)[]
  /** The multipart upload that completed this object. */
  uploadId?: string
}

/**
 * S3's conditional writes, checked when the write commits (under the key's lock): `ifNoneMatch`
 * `*` needs no object at the key, `ifMatch` the object with that ETag. A failure there is
 * `ConditionalRequestConflict` (409): the protocol layer checks first and answers 412 itself.
 */
export type WriteCondition = { ifMatch?: string; ifNoneMatch?: '*' }

/** Whether the object an `If-Match` / `If-None-Match: *` write would replace is the one asked for. */
export function conditionHolds(condition: WriteCondition, etag: string | null | undefined) {
  if (condition.ifNoneMatch === '*' && etag != null) return false
  if (condition.ifMatch !== undefined) {
    if (etag == null) return false
    const wanted = condition.ifMatch.trim()
    if (wanted !== '*' && wanted !== etag && `"${wanted}"` !== etag) return false
  }
  return true
}

export type OpenedObject = {
  info: ObjectInfo
  /**
   * Bytes `start`..`end` inclusive, or all of them. Call it once: the snapshot is released when
   * that stream ends or is destroyed (to answer without the bytes, destroy the stream read()).
   * `released` says when the caller holds none of the stream's chunks any more (true), or that
   * it may still hold some (false): given it, the store may lend chunks from buffers it reuses.
   */
  read(range?: { start: number; end: number }, released?: Promise<boolean>): Readable
}

/**
 * Keys come back in UTF-8 byte order (S3's order). With a delimiter, keys sharing a prefix up to
 * the delimiter come back once, as a common prefix, counting as one entry toward `maxKeys`.
 */
export type ListQuery = {
  prefix?: string
  delimiter?: string
  /** Only keys (and common prefixes) after this one. */
  startAfter?: string
  maxKeys: number
}
export type ListEntry = { object: ObjectInfo } | { commonPrefix: string }
export type ListPage = {
  entries: ListEntry[]
  isTruncated: boolean
  /** The last key or common prefix returned, when truncated: the next page's `startAfter`. */
  nextStartAfter?: string
}

export type UploadInfo = NewObject & {
  bucket: string
  key: string
  uploadId: string
  initiated: Date
}

export type PartInfo = {
  partNumber: number
  size: number
  etag: string
  lastModified: Date
  checksum?: StoredChecksum
}
export type PartsQuery = { partNumberMarker?: number; maxParts: number }
export type PartsPage = { upload: UploadInfo; parts: PartInfo[]; isTruncated: boolean }
/** A part named in a Complete request; a checksum given must be the part's stored one. */
export type CompletedPart = {
  partNumber: number
  etag: string
  checksum?: { algorithm: ChecksumAlgorithm; value: string }
}
export type CompleteOptions = {
  condition?: WriteCondition
  /**
   * The whole object's checksum the client sent: the composite (`…-N`, or without the suffix)
   * must match, else `BadDigest` and nothing is committed.
   */
  checksum?: { algorithm: ChecksumAlgorithm; value: string }
}

export type UploadsQuery = {
  prefix?: string
  delimiter?: string
  /** Only uploads of keys after this one, or of this key with an id after `uploadIdMarker`. */
  keyMarker?: string
  uploadIdMarker?: string
  maxUploads: number
}
export type UploadsEntry = { upload: UploadInfo } | { commonPrefix: string }
export type UploadsPage = {
  entries: UploadsEntry[]
  isTruncated: boolean
  /** When truncated: the last key (or common prefix) and upload id returned. */
  nextKeyMarker?: string
  nextUploadIdMarker?: string
}

export const MIN_PART_SIZE = 5 * 1024 * 1024
export const MAX_PART_NUMBER = 10_000
