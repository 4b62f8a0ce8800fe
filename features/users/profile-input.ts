import { z } from 'zod'

// What a user may send when editing their profile in /settings or through /api: shared by the
// form and the server, which validates every write whatever the browser checked.

export const DEFAULT_TIME_ZONE = 'Asia/Tokyo'
export const MAX_PROFILE_LINKS = 5

/** Every IANA zone this runtime knows; UTC is listed apart by some ICU versions. */
export const TIME_ZONES: readonly string[] = [
  ...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]),
]

const link = z
  .string()
  .trim()
  .max(200, 'リンクは 200 文字以内にしてください')
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol)
    } catch {
      return false
    }
  }, 'リンクは http:// または https:// で始まる URL にしてください')

export const profileFields = z.object({
  displayName: z
    .string({ error: '表示名を入力してください' })
    .trim()
    .min(1, '表示名を入力してください')
    .max(50, '表示名は 50 文字以内にしてください'),
  bio: z.string().trim().max(300, '自己紹介は 300 文字以内にしてください').default(''),
  links: z
    .array(link)
    .max(MAX_PROFILE_LINKS, `リンクは ${MAX_PROFILE_LINKS} 件までです`)
    .default([]),
  timeZone: z
    .string({ error: 'タイムゾーンを選んでください' })
    .refine((zone) => TIME_ZONES.includes(zone), 'タイムゾーンを一覧から選んでください')
    .default(DEFAULT_TIME_ZONE),
})
export type ProfileFields = z.infer<typeof profileFields>
