import { describe, expect, it } from 'vitest'
import { type ClientStorageSettings, publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import { type PublicObjectPlace, publicObjectKeyOf } from './public-object-url.ts'

const KEY = 'public/ap-northeast-1:abc/studies/図 1.png'
const embedded: PublicObjectPlace = {
  bucket: 'techlab',
  region: 'ap-northeast-1',
  endpoints: 'embedded',
  endpointPath: '/s3',
  publicUrl: undefined,
  siteOrigins: ['https://techlab.example'],
}

function client(place: PublicObjectPlace): ClientStorageSettings {
  return {
    ...place,
    endpointPath: place.endpoints === 'embedded' ? place.endpointPath : undefined,
    prefixes: { public: 'public/', protected: 'protected/', private: 'private/' },
  }
}

describe('publicObjectKeyOf', () => {
  it.each([
    ['the site’s /s3', embedded],
    ['STORAGE_PUBLIC_URL', { ...embedded, publicUrl: 'https://files.techlab.example/media' }],
    ['Amazon S3', { ...embedded, endpoints: 'aws' as const }],
  ])('finds the key in the address publicObjectUrl makes on %s', (_, place) => {
    expect(publicObjectKeyOf(place, publicObjectUrl(client(place), KEY))).toBe(KEY)
  })

  it('sees through the site’s origin, dot segments and escapes, as a browser would', () => {
    expect(publicObjectKeyOf(embedded, 'https://techlab.example/s3/techlab/public/a.png')).toBe(
      'public/a.png',
    )
    expect(publicObjectKeyOf(embedded, '/s3/x/../techlab/%70ublic/a.png')).toBe('public/a.png')
  })

  it('leaves other addresses alone', () => {
    for (const address of [
      'https://example.com/s3/techlab/public/a.png',
      '/s3/other-bucket/public/a.png',
      '/images/logo.png',
      'https://techlab.s3.ap-northeast-1.amazonaws.com/public/a.png',
      '/s3/techlab/',
      '/s3/techlab/%E0%A4%A',
    ]) {
      expect(publicObjectKeyOf(embedded, address), address).toBeUndefined()
    }
  })
})
