import { openTemporaryDatabase } from '../../../db/test-support.ts'
import { referencedFiles } from '../../../server/storage/backends/indexed/object-index.ts'
import { describeObjectStoreContract } from '../../../server/storage/backends/object-store.contract.ts'
import { listS3Leftovers } from '../../../server/storage/backends/s3/s3-content-objects.ts'
import { createS3ObjectStore } from '../../../server/storage/backends/s3/s3-object-store.ts'
import { BUCKET, root, startStorageServer } from './support.ts'

// The s3 backend against a second running instance of our own endpoint, as the engine it would
// reach on AWS S3, MinIO or Ceph: the same conformance suite as the fs backend.
describeObjectStoreContract('s3 through our /s3 endpoint', async () => {
  const engine = await startStorageServer()
  const database = await openTemporaryDatabase()
  const location = { client: root(engine).s3, bucket: BUCKET, prefix: 'backend-content/' }
  const store = createS3ObjectStore({ db: database.db, ...location })
  return {
    store,
    async leftovers() {
      const { objects, uploads } = await listS3Leftovers(
        location,
        await referencedFiles(database.db),
      )
      return [...objects, ...uploads.map((upload) => `upload of ${upload.key}`)]
    },
    async dispose() {
      await store.close()
      location.client.destroy()
      await database.remove()
      await engine.close()
    },
  }
})
