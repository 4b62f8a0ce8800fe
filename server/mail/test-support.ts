import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/** For tests only: a message as a local SMTP server received it, decoded. */
export type ReceivedMail = {
  /** The envelope: MAIL FROM and RCPT TO. */
  envelopeFrom: string
  envelopeTo: string[]
  /** The user the client authenticated as. */
  user: string | undefined
  headers: Map<string, string>
  /** The decoded Subject, From and To headers. */
  subject: string
  from: string
  to: string
  /** The decoded text/plain part. */
  text: string
  raw: string
}

export type TestSmtpServer = {
  /** `smtp://user:password@127.0.0.1:port`. */
  url: string
  port: number
  received: ReceivedMail[]
  /** Resolves once `count` messages have arrived in all; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>
  close(): Promise<void>
}

/**
 * For tests only: a real SMTP server on 127.0.0.1 and a free port that accepts mail only
 * after AUTH with the given credentials (plain text, as on a local relay: no STARTTLS).
 */
export async function startTestSmtpServer(credentials: {
  user: string
  password: string
  port?: number
  /** The message of a failed AUTH (a careless server may echo what it was sent). */
  authError?: (username: string, password: string) => string
}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = []
  const waiters = new Set<() => void>()
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.password) {
        callback(null, { user: auth.username })
      } else {
        const message = credentials.authError?.(auth.username ?? '', auth.password ?? '')
        callback(new Error(message ?? 'Invalid username or password'))
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1')
        const envelope = session.envelope
        received.push({
          ...parseMessage(raw),
          envelopeFrom: envelope.mailFrom ? envelope.mailFrom.address : '',
          envelopeTo: envelope.rcptTo.map((address) => address.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          raw,
        })
        for (const wake of waiters) wake()
        callback()
      })
    },
  })
  server.listen(credentials.port ?? 0, '127.0.0.1')
  await once(server.server, 'listening')
  const { port } = server.server.address() as AddressInfo
  const url = `smtp://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}`

  return {
    url,
    port,
    received,
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve(received)
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`expected ${count} messages, got ${received.length}`))
        }, timeoutMs)
        waiters.add(check)
        check()
      })
    },
    close() {
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

/** Enough of RFC 5322/2045/2047 to read what Nodemailer writes: headers and the text part. */
export function parseMessage(
  raw: string,
): Pick<ReceivedMail, 'headers' | 'subject' | 'from' | 'to' | 'text'> {
  const { headers, body } = splitHeaders(raw)
  const text = textPart(headers, body)
  return {
    headers,
    subject: decodeWords(headers.get('subject') ?? ''),
    from: decodeWords(headers.get('from') ?? ''),
    to: decodeWords(headers.get('to') ?? ''),
    text,
  }
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n')
  const head = end < 0 ? raw : raw.slice(0, end)
  const body = end < 0 ? '' : raw.slice(end + 4)
  const headers = new Map<string, string>()
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  return { headers, body }
}

function textPart(headers: Map<string, string>, body: string): string {
  const type = headers.get('content-type') ?? 'text/plain'
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
  if (/^multipart\//i.test(type) && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break
      const inner = splitHeaders(part.replace(/^\r\n/, ''))
      const text = textPart(inner.headers, inner.body)
      if (text) return text
    }
    return ''
  }
  if (!/^text\/plain/i.test(type)) return ''
  const charset = /charset="?([^";]+)"?/i.exec(type)?.[1] ?? 'utf-8'
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase()
  const bytes =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? quotedPrintable(body)
        : Buffer.from(body, 'latin1')
  return new TextDecoder(charset).decode(bytes).replace(/\r\n/g, '\n').replace(/\n$/, '')
}

function quotedPrintable(text: string): Buffer {
  const unfolded = text.replace(/=\r\n/g, '')
  const bytes: number[] = []
  for (let index = 0; index < unfolded.length; index++) {
    const hex = unfolded.slice(index + 1, index + 3)
    if (unfolded[index] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16))
      index += 2
    } else {
      bytes.push(unfolded.charCodeAt(index) & 0xff)
    }
  }
  return Buffer.from(bytes)
}

/** RFC 2047 encoded words; adjacent ones join (a character may be split across two). */
export function decodeWords(value: string): string {
  const pattern = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g
  let result = ''
  let last = 0
  let pending: { charset: string; bytes: Buffer[] } | undefined
  const flush = () => {
    if (pending) result += new TextDecoder(pending.charset).decode(Buffer.concat(pending.bytes))
    pending = undefined
  }
  for (const match of value.matchAll(pattern)) {
    const [whole, charset = 'utf-8', kind = 'B', data = ''] = match
    const between = value.slice(last, match.index)
    if (!pending || between.trim() !== '') {
      flush()
      result += between
    }
    const bytes =
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64')
        : quotedPrintable(data.replace(/_/g, ' '))
    if (pending && pending.charset.toLowerCase() === charset.toLowerCase()) {
      pending.bytes.push(bytes)
    } else {
      flush()
      pending = { charset, bytes: [bytes] }
    }
    last = match.index + whole.length
  }
  flush()
  return result + value.slice(last)
}
