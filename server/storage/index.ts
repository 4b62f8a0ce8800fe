import { S3Client } from '@aws-sdk/client-s3'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { StorageSettings } from '#server/config.ts'
import { authenticate, type FindCredentials } from './authenticate.ts'
import { createFsObjectStore } from './backends/fs/fs-object-store.ts'
import type { ObjectStore } from './backends/object-store.ts'
import { createS3ObjectStore, S3_CONTENT_PREFIX } from './backends/s3/s3-object-store.ts'
import { route } from './router.ts'

import { S3Error } from './s3-error.ts'
import { bucketOfHost, parseTarget } from './s3-request.ts'
import {
  applyCors,
  internalError,
  newRequestIds,
  protectBrowsers,
  type RequestIds,
  sendError,
} from './s3-response.ts'

export type StoragePluginOptions = {
  store: ObjectStore
  settings: StorageSettings
  findCredentials: FindCredentials
  now?: () => number
  /** On the endpoint's own origin: hosts `{bucket}.{virtualHostName}` name their bucket. */
  virtualHostName?: string
}

/** Opens the configured backend, clears what interrupted writes left, and creates the site's bucket. */
export async function openObjectStore(
  settings: StorageSettings,
  db: Kysely<DB>,
): Promise<ObjectStore> {
  const backend = settings.backend
  const store =
    backend.kind === 's3'
      ? createS3ObjectStore({
          db,
          client: new S3Client({
            region: backend.region,
            endpoint: backend.endpoint,
            forcePathStyle: backend.forcePathStyle,
            credentials: backend.credentials,
          }),
          bucket: backend.bucket,
          prefix: S3_CONTENT_PREFIX,
        })
      : await createFsObjectStore({ directory: backend.directory, db, fsync: backend.fsync })
  await store.recover()
  if (!(await store.bucketExists(settings.bucket))) await store.createBucket(settings.bucket)
  return store
}

/** Removes abandoned multipart uploads now and every hour while the server runs. */
export function scheduleUploadExpiry(
  app: FastifyInstance,
  store: ObjectStore,
  settings: StorageSettings,
  intervalMs = 60 * 60 * 1000,
): void {
  const expire = () => {
    const before = new Date(Date.now() - settings.multipartExpirySeconds * 1000)
    store.expireUploads(before).catch((error: unknown) => {
      app.log.warn({ err: error }, 'expiring multipart uploads failed')
    })
  }
  expire()
  const timer = setInterval(expire, intervalMs)
  timer.unref()
  app.addHook('onClose', async () => clearInterval(timer))
}

export const STORAGE_MOUNT = '/s3'

/**
 * The endpoint on its own origin (STORAGE_LISTEN_PORT): a Fastify instance of its own whose every
 * path is S3's, path style at the root and virtual-hosted style under STORAGE_HOSTNAME, so that
 * standard tools need only an endpoint URL and user uploads come from an origin not the site's.
 * The site's app closes it; `listen` is left to the caller (server/start.ts).
 */
export async function buildStorageOrigin(
  site: FastifyInstance,
  options: Omit<StoragePluginOptions, 'virtualHostName'>,
  logger: boolean,
): Promise<FastifyInstance> {
  const origin = Fastify({
    ...(logger ? { loggerInstance: site.log } : { logger: false }),
    frameworkErrors: (_error, request, reply) =>
      sendUnroutableS3Request(request, reply as FastifyReply),
    requestTimeout: 60_000,
  })
  // What the site's answers carry too (server/app.ts): no sniffing a stored file into a page.
  origin.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff')
  })
  await origin.register(storagePlugin, {
    ...options,
    virtualHostName: options.settings.origin?.hostname,
  })
  // Before the site's onClose hooks close the store: the origin's requests finish first.
  site.addHook('preClose', () => origin.close())
  return origin
}

/** Whether a request target belongs to the endpoint (mounted at /s3 by server/app.ts). */
export const isStoragePath = (url: string) =>
  url === STORAGE_MOUNT ||
  url.startsWith(`${STORAGE_MOUNT}/`) ||
  url.startsWith(`${STORAGE_MOUNT}?`)

/** Requests Fastify cannot route (malformed percent-encoding): S3's InvalidURI, not a page error. */
export function sendUnroutableS3Request(request: FastifyRequest, reply: FastifyReply) {
  const ids = newRequestIds()
  reply.header('x-amz-request-id', ids.requestId).header('x-amz-id-2', ids.hostId)
  protectBrowsers(reply)
  return sendError(
    request,
    reply,
    new S3Error('InvalidURI', "Couldn't parse the specified URI."),
    ids,
  )
}

declare module 'fastify' {
  interface FastifyRequest {
    s3Ids?: RequestIds
  }
  interface FastifyInstance {
    /** The endpoint's own origin, when STORAGE_LISTEN_PORT is set (buildStorageOrigin). */
    storageOrigin?: FastifyInstance
  }
}

/** The S3-compatible endpoint (path style), mounted under its prefix (docs/decisions/011). */
export async function storagePlugin(
  app: FastifyInstance,
  options: StoragePluginOptions,
): Promise<void> {
  const now = options.now ?? Date.now
  const mount = app.prefix
  // Bodies are object bytes or S3 XML: operations read the raw stream themselves.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, _payload, done) => done(null))

  app.addHook('onRequest', async (request, reply) => {
    const ids = newRequestIds()
    request.s3Ids = ids
    reply.header('x-amz-request-id', ids.requestId)
    reply.header('x-amz-id-2', ids.hostId)
    protectBrowsers(reply)
  })

  app.setErrorHandler(async (error, request, reply) => {
    const ids = request.s3Ids ?? newRequestIds()
    if (reply.sent) return
    if (error instanceof S3Error) return sendError(request, reply, error, ids)
    request.log.error({ err: error }, 'S3 request failed')
    return sendError(request, reply, internalError(), ids)
  })

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    if (applyCors(request, reply)) return reply.code(200).send()
    if (request.method === 'OPTIONS') {
      throw new S3Error('BadRequest', 'Insufficient information. Origin request header needed.')
    }
    const url = request.raw.url ?? '/'
    const hostBucket = options.virtualHostName
      ? bucketOfHost(request.headers.host, options.virtualHostName)
      : undefined
    const { bucket, key, query } = parseTarget(url, mount, hostBucket)
    const { caller, auth } = await authenticate(
      { method: request.method, url, headers: request.headers },
      options.settings,
      options.findCredentials,
      now(),
    )
    return route(
      {
        request,
        reply,
        store: options.store,
        settings: options.settings,
        caller,
        auth,
        query,
        mount,
      },
      bucket,
      key,
    )
  }
  app.all('/', handle)
  app.all('/*', handle)
}
