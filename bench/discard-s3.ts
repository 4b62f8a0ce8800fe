/**
 * The ceiling of the storage benchmark: the least a server that keeps what S3 clients send can
 * do. A PUT's body is hashed as S3 requires (SHA-256 checked against the
 * signed `x-amz-content-sha256`, MD5 for the ETag, the CRC32 the SDK sends checked), written to
 * a file and flushed, then answered; no signature, index or metadata. Other calls get the
 * smallest valid responses, and GET bodies come from one preallocated buffer, as long as the
 * number at the end of the key (`…-1048576`).
 */
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, open, rm, unlink } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { crc32 } from 'node:zlib'

const ETAG = '"d41d8cd98f00b204e9800998ecf8427e"'
const MAX_GET_BYTES = 64 * 1024 * 1024

export async function startDiscardS3(dataDir: string): Promise<{ url: string; server: Server }> {
  const bytes = Buffer.alloc(MAX_GET_BYTES, 0x61)
  await mkdir(dataDir, { recursive: true })
  const directory = await mkdtemp(path.join(dataDir, 'techlab-ceiling-'))
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const key = url.pathname.split('/').slice(2).join('/')
    if (request.method === 'PUT') {
      keep(request, response, directory).catch((error: unknown) => {
        response.writeHead(500).end(String(error))
      })
      return
    }
    request.on('data', () => {})
    request.on('end', () => {
      response.setHeader('x-amz-request-id', 'discard')
      if (request.method === 'GET') {
        const size = Number(/-(\d+)$/.exec(key)?.[1] ?? 0)
        response.writeHead(200, {
          'content-length': size,
          'content-type': 'application/octet-stream',
          etag: ETAG,
        })
        response.end(bytes.subarray(0, Math.min(size, MAX_GET_BYTES)))
        return
      }
      if (request.method === 'POST' && url.searchParams.has('uploads')) {
        xml(
          response,
          `<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>${key}</Key><UploadId>${randomUUID()}</UploadId></InitiateMultipartUploadResult>`,
        )
        return
      }
      if (request.method === 'POST' && url.searchParams.has('uploadId')) {
        xml(
          response,
          `<CompleteMultipartUploadResult><Bucket>b</Bucket><Key>${key}</Key><ETag>${ETAG}</ETag></CompleteMultipartUploadResult>`,
        )
        return
      }
      response.writeHead(200, { etag: ETAG, 'content-length': 0 })
      response.end()
    })
  })
  server.on('close', () => void rm(directory, { recursive: true, force: true }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, server }
}

/** Hashes, checks, writes and flushes a PUT's body, then answers its ETag. */
async function keep(request: IncomingMessage, response: ServerResponse, directory: string) {
  const file = path.join(directory, randomUUID())
  const handle = await open(file, 'w')
  const sha256 = createHash('sha256')
  const md5 = createHash('md5')
  let checksum = 0
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      sha256.update(chunk)
      md5.update(chunk)
      checksum = crc32(chunk, checksum)
      await handle.write(chunk)
    }
    await handle.datasync()
  } finally {
    await handle.close()
  }
  const signed = request.headers['x-amz-content-sha256']
  const sentCrc = request.headers['x-amz-checksum-crc32']
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(checksum >>> 0)
  const refused =
    (signed !== undefined && signed !== 'UNSIGNED-PAYLOAD' && signed !== sha256.digest('hex')) ||
    (sentCrc !== undefined && sentCrc !== crc.toString('base64'))
  if (refused) {
    response.writeHead(400, { 'content-length': 0 }).end()
  } else {
    response.writeHead(200, { etag: `"${md5.digest('hex')}"`, 'content-length': 0 }).end()
  }
  await unlink(file)
}

function xml(response: import('node:http').ServerResponse, body: string): void {
  const document = `<?xml version="1.0" encoding="UTF-8"?>\n${body}`
  response.writeHead(200, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(document),
  })
  response.end(document)
}
