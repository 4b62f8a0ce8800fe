import { markdownImageSources } from '#features/markdown/images.ts'
import { PNG_1X1 } from '#tests/e2e/fixtures/images.ts'
import { type PublicObjectPlace, publicObjectKeyOf } from './public-object-url.ts'
import type { ImageStorage, UploadedObject } from './uploaded-image.server.ts'

/** Where the tests' objects are read: the site's `/s3` endpoint, bucket `site`. */
export const TEST_OBJECT_PLACE: PublicObjectPlace = {
  bucket: 'site',
  region: 'ap-northeast-1',
  endpoints: 'embedded',
  endpointPath: '/s3',
  publicUrl: undefined,
  siteOrigins: [],
}

/**
 * Object storage as a table of uploaded objects, by key. The real answers (uploader
 * lookup) are tested against the running server in tests/integration/; here the rules
 * applied to those answers are.
 */
export class UploadedObjects implements ImageStorage {
  readonly objects = new Map<string, UploadedObject & { bytes: Uint8Array }>()
  upload(
    key: string,
    uploaderSub: string,
    contentType = 'image/png',
    size = 2048,
    bytes: Uint8Array = PNG_1X1,
  ) {
    // Keys of these tests name the uploader's folder as `id-{user}`.
    const inUploaderFolder = key.startsWith('public/id-')
    this.objects.set(key, { uploaderSub, inUploaderFolder, contentType, size, bytes })
    return key
  }
  async describePublic(key: string) {
    return this.objects.get(key)
  }
  async readStart(key: string, length: number) {
    return this.objects.get(key)?.bytes.subarray(0, length) ?? new Uint8Array()
  }
  async delete(key: string) {
    this.objects.delete(key)
  }
  publicKeyOf(address: string) {
    return publicObjectKeyOf(TEST_OBJECT_PLACE, address)
  }
  // The same reading as the server's renderer thread, here on the test's own.
  async markdownImageSources(body: string) {
    return markdownImageSources(body)
  }
}
