import {
  AbortMultipartUploadCommand,
  ListPartsCommand,
  type S3Client,
  type UploadPartCommandInput,
  type UploadPartCommandOutput,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import type { AccessLevel } from './storage-settings.ts'

/** The seed's multipart constants: a body at or under one part goes as a single PUT. */
export const PART_SIZE = 5_242_880
export const QUEUE_SIZE = 4
export const MAX_PARTS = 10_000

export type UploadState = 'INIT' | 'IN_PROGRESS' | 'PAUSED' | 'CANCELLED' | 'COMPLETED'
export type UploadProgress = { loaded: number; total: number; percent: number }

type UploadTaskEvents = {
  uploadPartProgress: UploadProgress
  uploadComplete: { key: string }
  cancel: undefined
  error: Error
  stateChange: UploadState
}

/**
 * Where the upload id of an unfinished multipart upload is remembered by file id, so that a
 * paused upload resumes after a reload (localStorage in the browser).
 */
export type ResumeStore = {
  get(fileId: string): string | null
  set(fileId: string, uploadId: string): void
  delete(fileId: string): void
}

export type UploadTaskOptions = {
  client: S3Client
  bucket: string
  key: string
  level: AccessLevel
  file: Blob
  resumeStore?: ResumeStore
}

/**
 * The seed's file id: name, last-modified time, size, type, bucket, level and key, without the
 * name and time for a Blob that is not a File.
 */
export function uploadFileId(file: Blob, bucket: string, level: AccessLevel, key: string): string {
  const named = typeof File !== 'undefined' && file instanceof File
  const parts = named
    ? [file.name, file.lastModified, file.size, file.type, bucket, level, key]
    : [file.size, file.type, bucket, level, key]
  return parts.join('-')
}

/**
 * One file going to object storage through lib-storage's `Upload` (parts of 5 MiB, four at a
 * time), with the seed's states. lib-storage cannot resume, so a resumed run hands it the
 * multipart upload it started and answers the parts the server already holds (from ListParts)
 * without sending them again.
 */
export class UploadTask {
  readonly fileId: string
  readonly result: Promise<void>
  #options: UploadTaskOptions
  #state: UploadState = 'INIT'
  #loaded = 0
  #upload: Upload | undefined
  #uploadId: string | undefined
  #listeners = new Map<keyof UploadTaskEvents, Set<(value: never) => void>>()
  #settle!: { resolve(): void; reject(error: Error): void }

  constructor(options: UploadTaskOptions) {
    if (Math.ceil(options.file.size / PART_SIZE) > MAX_PARTS) {
      throw new Error(`Only a maximum of ${MAX_PARTS} parts are allowed`)
    }
    this.#options = options
    this.fileId = uploadFileId(options.file, options.bucket, options.level, options.key)
    this.result = new Promise<void>((resolve, reject) => {
      this.#settle = { resolve, reject }
    })
    // Callers that only listen to events must not see an unhandled rejection.
    this.result.catch(() => {})
  }

  get state(): UploadState {
    return this.#state
  }

  get progress(): UploadProgress {
    const total = this.#options.file.size
    const loaded = Math.min(this.#loaded, total)
    return { loaded, total, percent: total === 0 ? 100 : Math.floor((loaded / total) * 100) }
  }

  on<E extends keyof UploadTaskEvents>(
    event: E,
    listener: (value: UploadTaskEvents[E]) => void,
  ): () => void {
    const listeners = this.#listeners.get(event) ?? new Set()
    this.#listeners.set(event, listeners)
    listeners.add(listener)
    return () => listeners.delete(listener)
  }

  start(): void {
    if (this.#state !== 'INIT') return
    void this.#run()
  }

  /** Stops sending parts; what the server holds is kept for `resume()`. Not an error. */
  pause(): void {
    if (this.#state !== 'IN_PROGRESS') return
    this.#setState('PAUSED')
    void this.#upload?.abort()
  }

  resume(): void {
    if (this.#state !== 'PAUSED') return
    void this.#run()
  }

  /**
   * Stops the upload and removes its parts from the server. If parts remain afterwards, the
   * cleanup failed and the result says so.
   */
  async cancel(): Promise<void> {
    if (this.#state === 'CANCELLED' || this.#state === 'COMPLETED') return
    this.#setState('CANCELLED')
    await this.#upload?.abort()
    const uploadId = this.#upload?.uploadId ?? this.#uploadId
    this.#forgetResume()
    let cleanupError: Error | undefined
    if (uploadId) {
      try {
        await this.#abortMultipart(uploadId)
      } catch (error) {
        cleanupError = error instanceof Error ? error : new Error(String(error))
      }
    }
    const cancelled = new Error(
      cleanupError ? `Upload was cancelled. ${cleanupError.message}` : 'Upload was cancelled',
    )
    cancelled.name = 'CanceledError'
    // A failed cleanup is an error: parts may still sit on the server.
    if (cleanupError) this.#emit('error', cancelled)
    else this.#emit('cancel', undefined)
    this.#settle.reject(cancelled)
  }

  async #run(): Promise<void> {
    this.#setState('IN_PROGRESS')
    const { client, bucket, key, file, resumeStore } = this.#options
    const previousId = this.#uploadId ?? resumeStore?.get(this.fileId) ?? undefined
    const held = previousId ? await this.#partsHeld(previousId) : undefined
    if (this.#state !== 'IN_PROGRESS') return
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key: key, Body: file, ContentType: file.type || undefined },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      // Failures and pauses are handled here: a pause must keep the parts.
      leavePartsOnError: true,
    })
    if (previousId && held) upload.uploadId = previousId
    this.#upload = upload
    const skipHeldParts = held && previousId ? answerHeldParts(client, previousId, held) : undefined
    upload.on('httpUploadProgress', ({ loaded }) => {
      if (upload.uploadId && upload.uploadId !== this.#uploadId) {
        this.#uploadId = upload.uploadId
        resumeStore?.set(this.fileId, upload.uploadId)
      }
      if (loaded === undefined || this.#state !== 'IN_PROGRESS') return
      this.#loaded = loaded
      this.#emit('uploadPartProgress', this.progress)
    })
    try {
      await upload.done()
      // A paused run may settle after a resume started another: only the latest run counts.
      if (this.#state !== 'IN_PROGRESS' || this.#upload !== upload) return
      this.#loaded = file.size
      this.#forgetResume()
      this.#setState('COMPLETED')
      this.#emit('uploadComplete', { key })
      this.#settle.resolve()
    } catch (error) {
      if (this.#upload !== upload) return
      if (upload.uploadId) this.#uploadId = upload.uploadId
      if (this.#state !== 'IN_PROGRESS') return
      // A failed part or completion cancels the multipart upload.
      const failure = error instanceof Error ? error : new Error(String(error))
      this.#setState('CANCELLED')
      this.#forgetResume()
      if (this.#uploadId) await this.#abortMultipart(this.#uploadId).catch(() => {})
      this.#emit('error', failure)
      this.#settle.reject(failure)
    } finally {
      skipHeldParts?.()
    }
  }

  /** The parts the server holds for an upload, or undefined when the upload no longer exists. */
  async #partsHeld(uploadId: string): Promise<Map<number, HeldPart> | undefined> {
    const { client, bucket, key } = this.#options
    const parts = new Map<number, HeldPart>()
    let marker: string | undefined
    try {
      do {
        const page = await client.send(
          new ListPartsCommand({
            Bucket: bucket,
            Key: key,
            UploadId: uploadId,
            PartNumberMarker: marker,
          }),
        )
        for (const part of page.Parts ?? []) {
          if (part.PartNumber === undefined || !part.ETag || part.Size === undefined) continue
          parts.set(part.PartNumber, {
            size: part.Size,
            output: {
              ETag: part.ETag,
              ChecksumCRC32: part.ChecksumCRC32,
              ChecksumCRC32C: part.ChecksumCRC32C,
              ChecksumCRC64NVME: part.ChecksumCRC64NVME,
              ChecksumSHA1: part.ChecksumSHA1,
              ChecksumSHA256: part.ChecksumSHA256,
            },
          })
        }
        marker = page.IsTruncated ? page.NextPartNumberMarker : undefined
      } while (marker)
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchUpload') {
        this.#uploadId = undefined
        this.#forgetResume()
        return undefined
      }
      throw error
    }
    return parts
  }

  async #abortMultipart(uploadId: string): Promise<void> {
    const { client, bucket, key } = this.#options
    await client.send(
      new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }),
    )
    const remaining = await this.#partsHeld(uploadId)
    if (remaining && remaining.size > 0) {
      throw new Error(`${remaining.size} part(s) of the upload remain on the server`)
    }
  }

  #forgetResume(): void {
    this.#options.resumeStore?.delete(this.fileId)
  }

  #setState(state: UploadState): void {
    this.#state = state
    this.#emit('stateChange', state)
  }

  #emit<E extends keyof UploadTaskEvents>(event: E, value: UploadTaskEvents[E]): void {
    for (const listener of this.#listeners.get(event) ?? []) {
      ;(listener as (value: UploadTaskEvents[E]) => void)(value)
    }
  }
}

/** A part the server holds: its size, and what UploadPart answered when it was sent. */
type HeldPart = { size: number; output: Omit<UploadPartCommandOutput, '$metadata'> }

/**
 * Makes the client answer UploadPart for parts the server already holds (same number and
 * size) from ListParts, so lib-storage counts them as sent. Returns the undo.
 */
function answerHeldParts(
  client: S3Client,
  uploadId: string,
  held: Map<number, HeldPart>,
): () => void {
  const name = `answerHeldParts-${uploadId}`
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'UploadPartCommand') return next(args)
      const input = args.input as UploadPartCommandInput
      const part = input.UploadId === uploadId ? held.get(input.PartNumber ?? 0) : undefined
      if (!part || part.size !== byteLength(input.Body)) return next(args)
      const output: UploadPartCommandOutput = { ...part.output, $metadata: {} }
      return { output, response: {} } as Awaited<ReturnType<typeof next>>
    },
    { step: 'initialize', name, override: true },
  )
  return () => client.middlewareStack.remove(name)
}

function byteLength(body: unknown): number | undefined {
  if (body instanceof Uint8Array) return body.byteLength
  if (typeof Blob !== 'undefined' && body instanceof Blob) return body.size
  return undefined
}
