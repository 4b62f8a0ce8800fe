import { createHash, createHmac, type KeyObject } from 'node:crypto'

/**
 * aws-chunked framing as S3 clients write it (AWS's documented format), for tests of the decoder
 * and of the endpoint: the SDK v3 itself sends only the unsigned-trailer form.
 */

export type ChunkSigner = {
  key: Buffer | KeyObject
  datetime: string
  /** `date/region/s3/aws4_request` */
  scope: string
  seedSignature: string
}

const hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')

/** Signed chunks chained from the seed signature; with `trailer`, a signed trailer line after them. */
export function signedChunkFraming(
  signer: ChunkSigner,
  chunks: Buffer[],
  options: { trailer?: string; tamper?: boolean } = {},
): Buffer {
  const sign = (text: string) => createHmac('sha256', signer.key).update(text).digest('hex')
  let previous = signer.seedSignature
  const out: Buffer[] = []
  for (const chunk of [...chunks, Buffer.alloc(0)]) {
    const fields = [signer.datetime, signer.scope, previous, hex(''), hex(chunk)]
    const signature = sign(['AWS4-HMAC-SHA256-PAYLOAD', ...fields].join('\n'))
    previous = signature
    const sent =
      options.tamper && chunk.length ? Buffer.from(chunk.toString().toUpperCase()) : chunk
    out.push(Buffer.from(`${chunk.length.toString(16)};chunk-signature=${signature}\r\n`), sent)
    if (chunk.length) out.push(Buffer.from('\r\n'))
  }
  if (options.trailer === undefined) return Buffer.concat([...out, Buffer.from('\r\n')])
  const fields = [signer.datetime, signer.scope, previous, hex(`${options.trailer}\n`)]
  const trailerSignature = sign(['AWS4-HMAC-SHA256-TRAILER', ...fields].join('\n'))
  const trailerLines = `${options.trailer}\r\nx-amz-trailer-signature:${trailerSignature}\r\n\r\n`
  return Buffer.concat([...out, Buffer.from(trailerLines)])
}

/** STREAMING-UNSIGNED-PAYLOAD-TRAILER framing. */
export function unsignedChunkFraming(chunks: Buffer[], trailer: string): Buffer {
  const out = chunks.flatMap((chunk) => [
    Buffer.from(`${chunk.length.toString(16)}\r\n`),
    chunk,
    Buffer.from('\r\n'),
  ])
  return Buffer.concat([...out, Buffer.from(`0\r\n${trailer}\r\n\r\n`)])
}
