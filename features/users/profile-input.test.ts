import { describe, expect, it } from 'vitest'
import { COMMON_TIME_ZONES, profileFields, TIME_ZONES } from './profile-input.ts'

describe('COMMON_TIME_ZONES', () => {
  it('puts Tokyo first, names each zone in Japanese, and lists each once', () => {
    expect(COMMON_TIME_ZONES[0]).toEqual({ zone: 'Asia/Tokyo', label: '日本（東京）' })
    expect(COMMON_TIME_ZONES.map(({ zone }) => zone)).toEqual([
      'Asia/Tokyo',
      'Asia/Seoul',
      'Asia/Shanghai',
      'Asia/Taipei',
      'Asia/Singapore',
      'Asia/Bangkok',
      expect.stringMatching(/^Asia\/(Kolkata|Calcutta)$/),
      'Europe/London',
      'Europe/Paris',
      'America/New_York',
      'America/Los_Angeles',
      'UTC',
    ])
    for (const { label } of COMMON_TIME_ZONES)
      expect(label).toMatch(/[\p{Script=Katakana}\p{Script=Han}]/u)
  })

  it('offers only zones the server accepts', () => {
    for (const { zone } of COMMON_TIME_ZONES) {
      expect(TIME_ZONES).toContain(zone)
      expect(profileFields.safeParse({ displayName: 'なお', timeZone: zone }).success).toBe(true)
    }
  })
})
