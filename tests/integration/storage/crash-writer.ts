// The child process of crash-recovery.test.ts: writes objects and completes multipart uploads
// into a disk store in a loop until it is killed. Before each change of a key it prints
// `begin {key} {md5}`, and `end {key} {md5}` once the store answered, so the parent knows
// which contents each key may hold after a SIGKILL at any moment.
import { createHash, randomBytes, randomInt } from 'node:crypto'
import { Readable } from 'node:stream'
import { type DatabaseSettings, openDatabase } from '#db/database.ts'
import { createFsObjectStore } from '#server/storage/backends/fs/fs-object-store.ts'
import { MIN_PART_SIZE } from '#server/storage/backends/object-store.ts'

const [settingsJson, directory, bucket] = process.argv.slice(2)
if (!settingsJson || !directory || !bucket)
  throw new Error('usage: crash-writer settings directory bucket')

const database = openDatabase(JSON.parse(settingsJson) as DatabaseSettings)
const store = await createFsObjectStore({ directory, db: database.db })
const owner = { headers: {}, metadata: {}, owner: 'crash-writer' }
const bodyOf = (bytes: Buffer) => {
  const chunks: Buffer[] = []
  for (let offset = 0; offset < bytes.length; offset += 65_536)
    chunks.push(bytes.subarray(offset, offset + 65_536))
  return { stream: Readable.from(chunks), checksum: () => undefined }
}
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex')
const say = (line: string) => process.stdout.write(`${line}\n`)

for (let round = 0; ; round++) {
  if (round % 3 === 2) {
    const key = `multipart/${round % 2}`
    const parts = [randomBytes(MIN_PART_SIZE), randomBytes(randomInt(1, 200_000))]
    const upload = await store.createMultipartUpload(bucket, key, owner)
    const uploaded = []
    for (const [index, part] of parts.entries()) {
      uploaded.push(await store.uploadPart(bucket, key, upload.uploadId, index + 1, bodyOf(part)))
    }
    const whole = md5(Buffer.concat(parts))
    say(`begin ${key} ${whole}`)
    await store.completeMultipartUpload(bucket, key, upload.uploadId, uploaded)
    say(`end ${key} ${whole}`)
  } else {
    const key = `objects/${round % 4}/値`
    const bytes = randomBytes(randomInt(0, 2 * 1024 * 1024))
    say(`begin ${key} ${md5(bytes)}`)
    await store.putObject(bucket, key, bodyOf(bytes), owner)
    say(`end ${key} ${md5(bytes)}`)
  }
}
