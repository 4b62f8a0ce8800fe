import { describe, expect, it } from 'vitest'
import { type ClientStorageSettings, objectKey, publicObjectUrl } from './storage-settings.ts'
import { MAX_PARTS, PART_SIZE, UploadTask, uploadFileId } from './upload-task.ts'

const prefixes = { public: 'public/', protected: 'protected/', private: 'private/' }

describe('objectKey', () => {
  it('puts protected and private files under the identity id, public ones not', () => {
    expect(objectKey(prefixes, 'public', 'ap-northeast-1:abc', 'a/b.png')).toBe('public/a/b.png')
    expect(objectKey(prefixes, 'protected', 'ap-northeast-1:abc', 'b.png')).toBe(
      'protected/ap-northeast-1:abc/b.png',
    )
    expect(objectKey(prefixes, 'private', 'ap-northeast-1:abc', 'b.png')).toBe(
      'private/ap-northeast-1:abc/b.png',
    )
  })

  it('refuses names that would escape the prefix', () => {
    expect(() => objectKey(prefixes, 'public', 'id', '')).toThrow()
    expect(() => objectKey(prefixes, 'private', 'id', '/x')).toThrow()
  })
})

describe('publicObjectUrl', () => {
  const settings: ClientStorageSettings = {
    endpoints: 'embedded',
    endpointPath: '/s3',
    region: 'ap-northeast-1',
    publicUrl: undefined,
    bucket: 'techlab',
    prefixes,
  }

  it('addresses our endpoint path-style, each key segment encoded', () => {
    expect(publicObjectUrl(settings, 'public/avatars/画像 1.png')).toBe(
      '/s3/techlab/public/avatars/%E7%94%BB%E5%83%8F%201.png',
    )
  })

  it('addresses Amazon S3 virtual-hosted style', () => {
    expect(publicObjectUrl({ ...settings, endpoints: 'aws' }, 'public/a#b.png')).toBe(
      'https://techlab.s3.ap-northeast-1.amazonaws.com/public/a%23b.png',
    )
  })

  it('addresses the public origin (STORAGE_PUBLIC_URL) when there is one, on either endpoint', () => {
    for (const endpoints of ['embedded', 'aws'] as const) {
      const publicUrl = 'https://files.techlab.example/techlab'
      expect(publicObjectUrl({ ...settings, endpoints, publicUrl }, 'public/a b.png')).toBe(
        'https://files.techlab.example/techlab/public/a%20b.png',
      )
    }
  })
})

describe('uploadFileId', () => {
  it('names a File by name, time, size, type, bucket, level and key', () => {
    const file = new File(['abc'], 'a.txt', { type: 'text/plain', lastModified: 1_700_000_000 })
    expect(uploadFileId(file, 'site', 'private', 'private/id/a.txt')).toBe(
      'a.txt-1700000000-3-text/plain-site-private-private/id/a.txt',
    )
  })

  it('names a plain Blob without name and time', () => {
    const blob = new Blob(['abcd'], { type: 'image/png' })
    expect(uploadFileId(blob, 'site', 'public', 'public/x.png')).toBe(
      '4-image/png-site-public-public/x.png',
    )
  })
})

describe('UploadTask', () => {
  it('refuses a file that would need more than 10000 parts before sending anything', () => {
    const huge = { size: PART_SIZE * MAX_PARTS + 1, type: '' } as Blob
    expect(
      () =>
        new UploadTask({
          client: {} as never,
          bucket: 'b',
          key: 'public/k',
          level: 'public',
          file: huge,
        }),
    ).toThrow('Only a maximum of 10000 parts are allowed')
  })
})
