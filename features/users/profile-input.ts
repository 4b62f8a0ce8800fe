import { z } from 'zod'

// What a user may send when editing their profile in /settings or through /api: shared by the
// form and the server, which validates every write whatever the browser checked.

export const DEFAULT_TIME_ZONE = 'Asia/Tokyo'
export const MAX_PROFILE_LINKS = 5

/** Every IANA zone this runtime knows; UTC is listed apart by some ICU versions. */
export const TIME_ZONES: readonly string[] = [
  ...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]),
]

/**
 * The zones most of our learners live in, offered first with Japanese names, Tokyo at the top;
 * every other zone is still found by searching. India's zone goes by whichever of its two IANA
 * names this runtime lists (ICU still calls it Asia/Calcutta), so the server accepts it.
 */
export const COMMON_TIME_ZONES: readonly { zone: string; label: string }[] = [
  { zone: 'Asia/Tokyo', label: '日本（東京）' },
  { zone: 'Asia/Seoul', label: '韓国（ソウル）' },
  { zone: 'Asia/Shanghai', label: '中国（上海）' },
  { zone: 'Asia/Taipei', label: '台湾（台北）' },
  { zone: 'Asia/Singapore', label: 'シンガポール' },
  { zone: 'Asia/Bangkok', label: 'タイ（バンコク）' },
  {
    zone: TIME_ZONES.includes('Asia/Kolkata') ? 'Asia/Kolkata' : 'Asia/Calcutta',
    label: 'インド（コルカタ）',
  },
  { zone: 'Europe/London', label: 'イギリス（ロンドン）' },
  { zone: 'Europe/Paris', label: 'フランス（パリ）' },
  { zone: 'America/New_York', label: 'アメリカ東部（ニューヨーク）' },
  { zone: 'America/Los_Angeles', label: 'アメリカ西部（ロサンゼルス）' },
  { zone: 'UTC', label: '協定世界時（UTC）' },
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
