import { MAX_PART_NUMBER } from '#server/storage/backends/object-store.ts'
import { checksumElement } from '#server/storage/checksums.ts'
import { noSuchKey, S3Error } from '#server/storage/s3-error.ts'
import { sendXml } from '#server/storage/s3-response.ts'
import type { XmlElement } from '#server/storage/xml.ts'
import { authorize, header, type ObjectContext } from './context.ts'
import { refuseCustomerKey } from './object-headers.ts'
import { checkVersionId } from './objects.ts'

const ATTRIBUTES = ['ETag', 'Checksum', 'ObjectParts', 'StorageClass', 'ObjectSize'] as const
type Attribute = (typeof ATTRIBUTES)[number]

/** A whole number from a header within bounds, or InvalidArgument naming it. */
function headerInteger(context: ObjectContext, name: string, max: number, fallback: number) {
  const value = header(context, name)
  if (value === undefined) return fallback
  const number = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN
  if (!(number <= max)) {
    throw new S3Error('InvalidArgument', `Provided ${name} not an integer or within range`, 400, {
      ArgumentName: name,
      ArgumentValue: value,
    })
  }
  return number
}

/**
 * GetObjectAttributes: the attributes named in `x-amz-object-attributes` without the body; for a
 * multipart object its parts, paged with `x-amz-max-parts` and `x-amz-part-number-marker`.
 */
export async function getObjectAttributes(context: ObjectContext) {
  const { bucket, key, store, reply } = context
  const asked = (header(context, 'x-amz-object-attributes') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  const unknown = asked.find((name) => !ATTRIBUTES.includes(name as Attribute))
  if (asked.length === 0 || unknown !== undefined) {
    throw new S3Error('InvalidArgument', 'Invalid attribute name specified.', 400, {
      ArgumentName: 'x-amz-object-attributes',
      ArgumentValue: unknown ?? '',
    })
  }
  const wants = (name: Attribute) => asked.includes(name)
  const maxParts = headerInteger(context, 'x-amz-max-parts', 1000, 1000)
  const marker = headerInteger(context, 'x-amz-part-number-marker', MAX_PART_NUMBER, 0)
  await authorize(context, 'read', key)
  checkVersionId(context.query.get('versionId'))
  refuseCustomerKey(context)
  const object = await store.headObject(bucket, key)
  if (!object) throw noSuchKey(key)
  reply.header('last-modified', object.lastModified.toUTCString())

  const { checksum, partSizes } = object
  const answer: XmlElement = {}
  // This attribute's ETag comes unquoted, unlike the header's.
  if (wants('ETag')) answer.ETag = object.etag.replace(/^"|"$/g, '')
  if (wants('Checksum') && checksum) {
    answer.Checksum = {
      [checksumElement(checksum.algorithm)]: checksum.value.replace(/-\d+$/, ''),
      ChecksumType: checksum.type,
    }
  }
  if (wants('ObjectParts') && partSizes) {
    const numbers = partSizes.map((_, index) => index + 1).filter((number) => number > marker)
    const page = numbers.slice(0, maxParts)
    answer.ObjectParts = {
      PartsCount: partSizes.length,
      PartNumberMarker: marker,
      NextPartNumberMarker: page.at(-1) ?? marker,
      MaxParts: maxParts,
      IsTruncated: numbers.length > page.length,
      Part: page.map((number) => {
        const partChecksum = object.partChecksums?.[number - 1]
        return {
          PartNumber: number,
          Size: partSizes[number - 1],
          ...(partChecksum && {
            [checksumElement(partChecksum.algorithm)]: partChecksum.value,
          }),
        }
      }),
    }
  }
  if (wants('StorageClass')) answer.StorageClass = 'STANDARD'
  if (wants('ObjectSize')) answer.ObjectSize = object.size
  return sendXml(reply, 'GetObjectAttributesResponse', answer)
}
