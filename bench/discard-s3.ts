/**
 * The ceiling of the storage benchmark: answers the S3 calls the benchmark makes with the
 * smallest valid responses, reading and dropping request bodies and sending bytes from one
 * preallocated buffer. What it measures is the AWS SDK client plus Node's HTTP on both ends.
 * GET bodies are as long as the number at the end of the key (`…-1048576`).
 */
import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

const ETAG = '"d41d8cd98f00b204e9800998ecf8427e"'
const MAX_GET_BYTES = 64 * 1024 * 1024

export async function startDiscardS3(): Promise<{ url: string; server: Server }> {
  const bytes = Buffer.alloc(MAX_GET_BYTES, 0x61)
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const key = url.pathname.split('/').slice(2).join('/')
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, server }
}

function xml(response: import('node:http').ServerResponse, body: string): void {
  const document = `<?xml version="1.0" encoding="UTF-8"?>\n${body}`
  response.writeHead(200, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(document),
  })
  response.end(document)
}
