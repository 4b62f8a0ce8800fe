import type { FastifyInstance } from 'fastify'
import { uploadRoutes as routes } from '#features/api/uploads.ts'
import { ContentError } from '#features/content-error.ts'
import {
  type ImageStorage,
  refusalOfUploadedImage,
} from '#features/images/uploaded-image.server.ts'
import { serve } from './serve.ts'

/**
 * The editors ask here before an uploaded image enters their form: the same check every save
 * makes, so a file the server will refuse is never listed (or saved with the rest of the form).
 */
export function registerUploadRoutes(api: FastifyInstance, images: ImageStorage): void {
  serve(api, routes.checkImage, async ({ sent, actor }) => {
    const refusal = await refusalOfUploadedImage(images, actor.userId, sent.body.key, '画像')
    if (refusal) {
      throw new ContentError('VALIDATION_FAILED', refusal, { key: [refusal] })
    }
    return { key: sent.body.key }
  })
}
