import { createHash, randomBytes } from 'node:crypto'
import { GetObjectCommand, ListPartsCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ResumeStore, type UploadState, UploadTask } from '#app/lib/storage/upload-task.ts'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, expectS3Error, type Person, signedInUser, startStorageServer } from './support.ts'

let server: TestServer
let user: Person

beforeAll(async () => {
  server = await startStorageServer()
  user = await signedInUser(server)
})
afterAll(async () => {
  await server?.close()
})

const MiB = 1024 * 1024
const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('hex')

/** Counts the UploadPart requests that really leave the client. */
/** The part uploads a person's client sends, and a wait for those in flight to be answered. */
function countPartRequests(person: Person): {
  sent: number[]
  answered(): Promise<unknown>
  stop(): void
} {
  const sent: number[] = []
  const inFlight: Promise<unknown>[] = []
  const name = `count-parts-${Math.random()}`
  person.s3.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'UploadPartCommand') return next(args)
      sent.push((args.input as { PartNumber: number }).PartNumber)
      const answer = next(args)
      inFlight.push(answer)
      return answer
    },
    { step: 'finalizeRequest', name },
  )
  return {
    sent,
    answered: () => Promise.allSettled(inFlight),
    stop: () => person.s3.middlewareStack.remove(name),
  }
}

function memoryResumeStore(): ResumeStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>()
  return {
    entries,
    get: (fileId) => entries.get(fileId) ?? null,
    set: (fileId, uploadId) => entries.set(fileId, uploadId),
    delete: (fileId) => entries.delete(fileId),
  }
}

async function readBack(key: string): Promise<Uint8Array> {
  const object = await user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
  return (await object.Body?.transformToByteArray()) ?? new Uint8Array()
}

/** A task for a private file of the user, started and paused at its first progress event. */
async function pausedTask(key: string, file: Blob, resumeStore: ResumeStore): Promise<UploadTask> {
  const task = new UploadTask({
    client: user.s3,
    bucket: BUCKET,
    key,
    level: 'private',
    file,
    resumeStore,
  })
  const paused = new Promise<void>((resolve) => {
    const stopListening = task.on('uploadPartProgress', () => {
      stopListening()
      task.pause()
      resolve()
    })
  })
  task.start()
  await paused
  return task
}

describe('UploadTask against /s3', () => {
  it('uploads a small file in one PUT and reports 100%', async () => {
    const data = randomBytes(64 * 1024)
    const key = `private/${user.identityId}/small.bin`
    const task = new UploadTask({
      client: user.s3,
      bucket: BUCKET,
      key,
      level: 'private',
      file: new Blob([data]),
    })
    const states: UploadState[] = []
    task.on('stateChange', (state) => states.push(state))
    task.start()
    await task.result
    expect(states).toEqual(['IN_PROGRESS', 'COMPLETED'])
    expect(task.progress).toEqual({ loaded: data.length, total: data.length, percent: 100 })
    expect(md5(await readBack(key))).toBe(md5(data))
  })

  it('pauses, then resumes the same multipart upload without sending held parts again', async () => {
    const data = randomBytes(16 * MiB)
    const key = `private/${user.identityId}/paused.bin`
    const resumeStore = memoryResumeStore()
    const counter = countPartRequests(user)
    const task = await pausedTask(key, new Blob([data]), resumeStore)
    expect(task.state).toBe('PAUSED')
    // Parts in flight when paused still land; once they are answered, see what is held.
    const uploadId = [...resumeStore.entries.values()][0] as string
    expect(uploadId).toBeTruthy()
    await counter.answered()
    const held = await user.s3.send(
      new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId }),
    )
    const heldNumbers = (held.Parts ?? []).map((part) => part.PartNumber)
    expect(heldNumbers.length).toBeGreaterThan(0)
    const sentBeforeResume = counter.sent.length

    task.resume()
    await task.result
    counter.stop()
    expect(task.state).toBe('COMPLETED')
    const resent = counter.sent.slice(sentBeforeResume)
    for (const number of heldNumbers) expect(resent).not.toContain(number)
    expect(resent.length).toBeLessThanOrEqual(4 - heldNumbers.length)
    expect(md5(await readBack(key))).toBe(md5(data))
    expect(resumeStore.entries.size).toBe(0)
  })

  it('resumes from the resume store in a new task (a reload), by file id', async () => {
    const data = randomBytes(11 * MiB)
    const key = `private/${user.identityId}/reloaded.bin`
    const resumeStore = memoryResumeStore()
    const file = new Blob([data])
    const firstCounter = countPartRequests(user)
    const first = await pausedTask(key, file, resumeStore)
    await firstCounter.answered()
    firstCounter.stop()
    expect(resumeStore.get(first.fileId)).toBeTruthy()

    const counter = countPartRequests(user)
    const second = new UploadTask({
      client: user.s3,
      bucket: BUCKET,
      key,
      level: 'private',
      file,
      resumeStore,
    })
    expect(second.fileId).toBe(first.fileId)
    second.start()
    await second.result
    counter.stop()
    expect(counter.sent.length).toBeLessThan(3)
    expect(md5(await readBack(key))).toBe(md5(data))
  })

  it('cancels: the multipart upload is aborted, no parts remain, the result says so', async () => {
    const key = `private/${user.identityId}/cancelled.bin`
    const resumeStore = memoryResumeStore()
    const uploadIds: string[] = []
    const task = new UploadTask({
      client: user.s3,
      bucket: BUCKET,
      key,
      level: 'private',
      file: new Blob([randomBytes(12 * MiB)]),
      resumeStore: { ...resumeStore, set: (_fileId, id) => uploadIds.push(id) },
    })
    const cancelled = new Promise<void>((resolve) => task.on('cancel', () => resolve()))
    task.on('uploadPartProgress', () => {
      if (task.state === 'IN_PROGRESS') void task.cancel()
    })
    task.start()
    await expect(task.result).rejects.toThrow(/^Upload was cancelled$/)
    await cancelled
    expect(task.state).toBe('CANCELLED')
    expect(uploadIds).toHaveLength(1)
    await expectS3Error(
      user.s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId: uploadIds[0] })),
      'NoSuchUpload',
    )
    await expectS3Error(
      user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key })),
      'NoSuchKey',
    )
  })

  it('a refused upload ends in an error, not a hang (writing into another identity)', async () => {
    const task = new UploadTask({
      client: user.s3,
      bucket: BUCKET,
      key: 'private/ap-northeast-1:00000000-0000-0000-0000-000000000000/x.bin',
      level: 'private',
      file: new Blob([randomBytes(1024)]),
    })
    const errors: Error[] = []
    task.on('error', (error) => errors.push(error))
    task.start()
    await expect(task.result).rejects.toMatchObject({ name: 'AccessDenied' })
    expect(errors).toHaveLength(1)
    expect(task.state).toBe('CANCELLED')
  })
})
