import { z } from 'zod'
import { route } from './contract.ts'

/** An object key of the site's bucket, as the editors' uploads name it. */
const objectKey = z.string().min(1).max(512)

/** Checks of what the browser uploaded, before an editor takes it into its form. */
export const uploadRoutes = {
  checkImage: route({
    method: 'POST',
    path: '/uploads/image-check',
    summary:
      'アップロードした画像を、フォームに加える前に確かめる（自分のもので、中身が画像か。違えば 400）',
    signIn: true,
    body: z.object({ key: objectKey }),
    status: 200,
    response: z.object({ key: objectKey }),
  }),
}
