/**
 * The S3 client and the multipart upload task, downloaded when someone picks a file: the AWS
 * SDK is most of a page's JavaScript, and pages that show covers or editors' fields must not
 * pay for it before anything is uploaded (the first-load budget).
 */
export type Uploader = typeof import('./s3.client.ts') & typeof import('./upload-task.ts')

let loading: Promise<Uploader> | undefined

export function loadUploader(): Promise<Uploader> {
  loading ??= Promise.all([import('./s3.client.ts'), import('./upload-task.ts')]).then(
    ([client, task]) => ({ ...client, ...task }),
    (error: unknown) => {
      loading = undefined
      throw error
    },
  )
  return loading
}
