import { describe, expect, it } from 'vitest'
import { fileRefusal, formatBytes } from './file-upload.tsx'

const images = ['image/png', 'image/jpeg']

describe('fileRefusal', () => {
  it('accepts a file of an accepted type within the size limit', () => {
    expect(fileRefusal({ type: 'image/png', size: 1000 }, images, 2000)).toBeUndefined()
    expect(fileRefusal({ type: 'image/png', size: 2000 }, images, 2000)).toBeUndefined()
  })

  it('names the accepted types when the type is wrong', () => {
    expect(fileRefusal({ type: 'application/pdf', size: 10 }, images, 2000)).toBe(
      'このファイルの種類はアップロードできません。PNG・JPEGを選んでください。',
    )
  })

  it('refuses empty and oversized files', () => {
    expect(fileRefusal({ type: 'image/png', size: 0 }, images, 2000)).toBe(
      '空のファイルはアップロードできません。',
    )
    expect(fileRefusal({ type: 'image/png', size: 2001 }, images, 20 * 1024 * 1024)).toBe(undefined)
    expect(
      fileRefusal({ type: 'image/png', size: 21 * 1024 * 1024 }, images, 20 * 1024 * 1024),
    ).toBe('ファイルが大きすぎます。20.0 MB 以下のファイルを選んでください。')
  })
})

describe('formatBytes', () => {
  it('uses B, KB and MB', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(12 * 1024 * 1024)).toBe('12.0 MB')
  })
})
