import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { negotiate } from '@fastify/accept-negotiator'

/**
 * Content codings this server answers in, best first. Brotli is the smaller; gzip is what every
 * client understands. Precompressed assets, cached pages and on-the-fly answers use the same two.
 */
export const CONTENT_CODINGS = ['br', 'gzip'] as const
export type ContentCoding = (typeof CONTENT_CODINGS)[number]

/** Answers smaller than this are sent as they are: the coding's framing would eat the gain. */
export const COMPRESSION_THRESHOLD_BYTES = 1024

/**
 * Brotli's quality for answers compressed per request: 4 compresses HTML and JSON nearly as
 * well as the maximum at a small fraction of the CPU (decision 029).
 */
export const ON_THE_FLY_BROTLI_QUALITY = 4

/**
 * The coding to answer in for an Accept-Encoding header, if any: the negotiation
 * @fastify/compress makes for `/api` answers, so that pages and the API choose alike. Coding
 * names are case-insensitive (RFC 9110 §8.4.1); the library compares them as written.
 */
export function negotiateCoding(acceptEncoding: string | undefined): ContentCoding | undefined {
  if (!acceptEncoding) return undefined
  return (negotiate(acceptEncoding.toLowerCase(), [...CONTENT_CODINGS]) ?? undefined) as
    | ContentCoding
    | undefined
}

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/**
 * How hard to compress: `max` for bytes made once and sent for as long as the build lives
 * (assets), `reuse` for bytes sent for a few seconds (cached pages, renewed every s-maxage),
 * where brotli's top qualities cost tens of times more CPU for a few percent (decision 029).
 */
const EFFORT = {
  max: { brotli: zlib.constants.BROTLI_MAX_QUALITY, gzip: zlib.constants.Z_BEST_COMPRESSION },
  reuse: { brotli: 5, gzip: 6 },
} as const

/** Compresses on the thread pool, so the event loop keeps serving meanwhile. */
export async function compressForReuse(
  bytes: Uint8Array,
  coding: ContentCoding,
  effort: keyof typeof EFFORT = 'reuse',
): Promise<Uint8Array> {
  if (coding === 'br') {
    return brotli(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: EFFORT[effort].brotli,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    })
  }
  return gzip(bytes, { level: EFFORT[effort].gzip })
}

/** Whether a media type is worth compressing (text, JSON, JavaScript, SVG, XML, wasm). */
export function isCompressible(contentType: string | undefined): boolean {
  if (!contentType) return false
  return /^(text\/|application\/(json|javascript|xml|manifest\+json|wasm|[\w.+-]+\+(json|xml))|image\/svg\+xml)/i.test(
    contentType,
  )
}

/**
 * @fastify/compress settings for answers made per request (pages, `/api` JSON): registered only
 * in those contexts, never where bytes must stay as stored (`/s3` objects, the AWS protocols).
 */
export const onTheFlyCompression = {
  encodings: [...CONTENT_CODINGS],
  threshold: COMPRESSION_THRESHOLD_BYTES,
  customTypes: (contentType: string) => isCompressible(contentType),
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: ON_THE_FLY_BROTLI_QUALITY } },
}

const PRECOMPRESSED_EXTENSIONS = /\.(js|mjs|css|svg|json|webmanifest|txt|xml|html|wasm)$/

/**
 * Writes `NAME.br` and `NAME.gz` beside every text asset of the client build worth compressing,
 * at the highest settings, for @fastify/static's `preCompressed` to send by Accept-Encoding.
 * A coding that does not make the file smaller is not written.
 */
export async function precompressDirectory(directory: string): Promise<{ files: number }> {
  const { readdir, readFile, writeFile } = await import('node:fs/promises')
  const path = await import('node:path')
  const entries = await readdir(directory, { recursive: true, withFileTypes: true })
  const present = new Set(entries.map((entry) => path.join(entry.parentPath, entry.name)))
  // A file with its copies already beside it (Pyodide's, from their cache) is done.
  const assets = entries
    .filter((entry) => entry.isFile() && PRECOMPRESSED_EXTENSIONS.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !present.has(`${file}.br`) && !present.has(`${file}.gz`))
  let files = 0
  await Promise.all(
    assets.map(async (file) => {
      const bytes = await readFile(file)
      // No size threshold here: made once, a small chunk's brotli copy still saves a third or
      // more, and a page loads dozens of them. The check below skips copies that save nothing.
      for (const coding of CONTENT_CODINGS) {
        const encoded = await compressForReuse(bytes, coding, 'max')
        if (encoded.byteLength >= bytes.byteLength) continue
        await writeFile(`${file}.${coding === 'br' ? 'br' : 'gz'}`, encoded)
      }
      files += 1
    }),
  )
  return { files }
}
