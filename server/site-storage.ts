import { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import type { AppContext } from '#app/load-context.ts'
import type { DB } from '#db/schema.ts'
import type { DemoImageStore } from '#db/seed/seed.ts'
import { imageObjectName } from '#features/images/image-rules.ts'
import { publicObjectKeyOf } from '#features/images/public-object-url.ts'
import type { MarkdownRenderer } from '#features/markdown/stored-html.server.ts'
import type { StorageSettings } from './config.ts'
import { identityForLogin, userPoolProvider } from './identity/identity-pool/identities.ts'
import type { Identity } from './identity/index.ts'
import type { ObjectStore } from './storage/backends/object-store.ts'
import { STORAGE_MOUNT } from './storage/index.ts'

/**
 * Object storage as the site's pages see it: what the browser needs to upload (no secrets), and
 * the few questions the product asks of stored objects, answered from the store and the
 * identity pool so that features never speak S3.
 */
export function siteStorage(
  store: ObjectStore,
  settings: StorageSettings,
  identity: Pick<Identity, 'userPoolSubOf'>,
  markdown: Pick<MarkdownRenderer, 'imageSources'>,
  siteOrigins: readonly string[] = [],
): AppContext['storage'] {
  const { bucket, prefixes } = settings
  const place = {
    bucket,
    region: settings.region,
    endpoints: settings.browserEndpoint,
    endpointPath: STORAGE_MOUNT,
    publicUrl: settings.publicUrl,
    siteOrigins,
  }
  return {
    client: {
      endpoints: settings.browserEndpoint,
      endpointPath: settings.browserEndpoint === 'embedded' ? STORAGE_MOUNT : undefined,
      region: settings.region,
      publicUrl: settings.publicUrl,
      bucket,
      prefixes,
    },
    images: {
      async describePublic(key) {
        if (!key.startsWith(prefixes.public)) return undefined
        const object = await store.headObject(bucket, key)
        if (!object) return undefined
        return {
          uploaderSub: await identity.userPoolSubOf(object.owner),
          inUploaderFolder:
            Boolean(object.owner) && key.startsWith(`${prefixes.public}${object.owner}/`),
          size: object.size,
          contentType: object.headers.contentType,
        }
      },
      async readStart(key, length) {
        if (!key.startsWith(prefixes.public)) return new Uint8Array()
        const opened = await store.openObject(bucket, key)
        if (!opened) return new Uint8Array()
        if (opened.info.size === 0 || length <= 0) {
          opened.read().destroy()
          return new Uint8Array()
        }
        const end = Math.min(length, opened.info.size) - 1
        const chunks: Buffer[] = []
        for await (const chunk of opened.read({ start: 0, end })) chunks.push(chunk)
        return new Uint8Array(Buffer.concat(chunks))
      },
      delete: (key) => store.deleteObject(bucket, key),
      publicKeyOf: (address) => publicObjectKeyOf(place, address),
      markdownImageSources: (body) => markdown.imageSources(body),
    },
  }
}

/**
 * Images the server itself stores for a user (the demo content's drawn covers): each goes where
 * the user's own upload would, `public/{identityId}/{folder}/…`, owned by the user's identity,
 * so that every check of "an image this user uploaded" treats it as theirs.
 */
export function ownImageStore(
  store: ObjectStore,
  settings: Pick<StorageSettings, 'bucket' | 'prefixes'>,
  db: Kysely<DB>,
  identity: { region: string; userPoolId: string },
): DemoImageStore {
  return {
    async putOwnImage(userId, folder, png) {
      const login = `${userPoolProvider(identity)}|${userId}`
      const { identityId } = await identityForLogin(db, identity.region, login)
      const key = `${settings.prefixes.public}${imageObjectName(`${identityId}/${folder}`, { type: 'image/png' })}`
      await store.putObject(
        settings.bucket,
        key,
        { stream: Readable.from([Buffer.from(png)]), checksum: () => undefined },
        { headers: { contentType: 'image/png' }, metadata: {}, owner: identityId },
      )
      return key
    },
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Stores images as a user's own uploads (the seed's covers); see ownImageStore. */
    ownImages: DemoImageStore
  }
}
