/**
 * The one error type of the S3-compatible endpoint and its backends. Sent as S3's XML error
 * document (`<Error><Code/><Message/>…<RequestId/></Error>`), without a body for HEAD.
 * `details` become extra elements, e.g. `{ ServerTime }` for RequestTimeTooSkewed.
 */
export class S3Error extends Error {
  readonly code: string
  readonly status: number
  readonly details: Readonly<Record<string, string>>

  constructor(code: string, message: string, status = 400, details: Record<string, string> = {}) {
    super(message)
    this.name = code
    this.code = code
    this.status = status
    this.details = details
  }
}

export const noSuchBucket = (bucket: string) =>
  new S3Error('NoSuchBucket', 'The specified bucket does not exist', 404, { BucketName: bucket })
export const noSuchKey = (key: string) =>
  new S3Error('NoSuchKey', 'The specified key does not exist.', 404, { Key: key })
export const noSuchUpload = (uploadId: string) =>
  new S3Error(
    'NoSuchUpload',
    'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
    404,
    { UploadId: uploadId },
  )
export const accessDenied = () => new S3Error('AccessDenied', 'Access Denied', 403)
