import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { S3Error } from './s3-error.ts'
import { parseXml, xmlDocument } from './xml.ts'

describe('S3 XML', () => {
  it('escapes every text, keys with markup included, and writes dates with milliseconds', () => {
    const xml = xmlDocument('ListBucketResult', {
      Name: 'techlab',
      Contents: [
        {
          Key: 'public/<a>&"b\'.txt',
          LastModified: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
          Size: 3,
        },
        { Key: 'public/c', Size: 0 },
      ],
      Absent: undefined,
    })
    expect(xml).toContain('<Key>public/&lt;a&gt;&amp;&quot;b&apos;.txt</Key>')
    expect(xml).toContain('<LastModified>2026-01-02T03:04:05.000Z</LastModified>')
    expect(xml).toContain('<Contents><Key>public/c</Key><Size>0</Size></Contents>')
    expect(xml).not.toContain('Absent')
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true)
  })

  const schema = z.object({
    CompleteMultipartUpload: z.object({
      Part: z.array(z.object({ PartNumber: z.string(), ETag: z.string() })),
    }),
  })

  it('reads a well-formed body, entities decoded', () => {
    const body = Buffer.from(
      '<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Part><PartNumber>1</PartNumber><ETag>&quot;abc&quot;</ETag></Part></CompleteMultipartUpload>',
    )
    expect(parseXml(body, schema).CompleteMultipartUpload.Part).toEqual([
      { PartNumber: '1', ETag: '"abc"' },
    ])
  })

  it('answers MalformedXML for broken, empty, entity-declaring or off-schema bodies', () => {
    for (const body of [
      '<CompleteMultipartUpload><Part>',
      '',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "boom">]><CompleteMultipartUpload><Part><PartNumber>&e;</PartNumber><ETag>x</ETag></Part></CompleteMultipartUpload>',
      '<Other/>',
    ]) {
      try {
        parseXml(Buffer.from(body), schema)
        throw new Error(`accepted ${body}`)
      } catch (error) {
        expect(error).toBeInstanceOf(S3Error)
        expect((error as S3Error).code).toBe('MalformedXML')
      }
    }
  })
})
