import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'

/** The seed's storage defaults: 900 seconds, and S3's limit of 7 days. */
export const PRESIGNED_URL_DEFAULT_S = 900
export const PRESIGNED_URL_MAX_S = 7 * 24 * 60 * 60

/**
 * A URL that reads a protected or private object without credentials until it expires, for
 * `<img>`, `<a download>` and the like (public objects need none: see `publicObjectUrl`).
 */
export function presignedGetUrl(
  client: S3Client,
  bucket: string,
  key: string,
  expiresInSeconds = PRESIGNED_URL_DEFAULT_S,
): Promise<string> {
  if (
    !Number.isInteger(expiresInSeconds) ||
    expiresInSeconds < 1 ||
    expiresInSeconds > PRESIGNED_URL_MAX_S
  ) {
    return Promise.reject(
      new RangeError(`expiresIn must be between 1 and ${PRESIGNED_URL_MAX_S} seconds`),
    )
  }
  return getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), {
    expiresIn: expiresInSeconds,
  })
}
