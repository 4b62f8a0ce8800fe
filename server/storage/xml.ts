import { XMLParser, XMLValidator } from 'fast-xml-parser'
import type { z } from 'zod'
import { S3Error } from './s3-error.ts'

/** S3's XML: responses built here with every text escaped, request bodies parsed and checked. */

export const S3_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/'

/** An element's content: text, a number, a date (ISO 8601 with milliseconds), children, or absent. */
export type XmlValue = string | number | boolean | Date | undefined | XmlElement | XmlValue[]
export type XmlElement = { [name: string]: XmlValue }

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"'\r]/g, (c) => ESCAPES[c] as string)
}

function text(value: string | number | boolean | Date): string {
  return escapeXml(value instanceof Date ? value.toISOString() : String(value))
}

function element(name: string, value: XmlValue): string {
  if (value === undefined) return ''
  if (Array.isArray(value)) return value.map((item) => element(name, item)).join('')
  if (typeof value === 'object' && !(value instanceof Date)) {
    return `<${name}>${children(value)}</${name}>`
  }
  return `<${name}>${text(value)}</${name}>`
}

function children(value: XmlElement): string {
  return Object.entries(value)
    .map(([name, child]) => element(name, child))
    .join('')
}

/** A whole document: `<?xml…?><Root xmlns="…">…</Root>`. */
export function xmlDocument(root: string, content: XmlElement, namespace = true): string {
  const attributes = namespace ? ` xmlns="${S3_NAMESPACE}"` : ''
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root}${attributes}>${children(content)}</${root}>`
}

export const malformedXml = () =>
  new S3Error(
    'MalformedXML',
    'The XML you provided was not well-formed or did not validate against our published schema',
  )

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  isArray: (name) => name === 'Part' || name === 'Object',
})

/** Parses a request body and checks it against a schema; anything else is MalformedXML. */
export function parseXml<T>(body: Buffer, schema: z.ZodType<T>): T {
  const source = body.toString('utf8')
  if (
    source.trim() === '' ||
    /<!DOCTYPE|<!ENTITY/i.test(source) ||
    XMLValidator.validate(source) !== true
  ) {
    throw malformedXml()
  }
  const parsed = schema.safeParse(parser.parse(source))
  if (!parsed.success) throw malformedXml()
  return parsed.data
}
