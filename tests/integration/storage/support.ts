import { createHash } from 'node:crypto'
import { Sha256 } from '@aws-crypto/sha256-js'
import {
  CognitoIdentityClient,
  GetCredentialsForIdentityCommand,
  GetIdCommand,
} from '@aws-sdk/client-cognito-identity'
import { S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import { SignatureV4 } from '@smithy/signature-v4'
import { expect } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import {
  CLIENT_ID,
  newAccount,
  POOL_ID,
  registerUser,
  signIn,
} from '#tests/integration/identity/support.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

export const BUCKET = 'techlab'
export const REGION = 'ap-northeast-1'
const IDENTITY_POOL_ID = loadConfig({}).identity.identityPoolId
export const ROOT = {
  accessKeyId: 'TESTROOTACCESSKEY0001',
  secretAccessKey: 'test-root-secret-key-0123456789',
}

export type Credentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string }
export type Person = { identityId: string; credentials: Credentials; s3: S3Client }

/** The real server with the root credential configured (fsync off: crash safety is the disk backend's test). */
export function startStorageServer(environment: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({
    STORAGE_ROOT_ACCESS_KEY_ID: ROOT.accessKeyId,
    STORAGE_ROOT_SECRET_ACCESS_KEY: ROOT.secretAccessKey,
    STORAGE_FSYNC: 'off',
    ...environment,
  })
}

/** An S3 client as browser code configures it: path style, our endpoint, default checksums. */
export function s3Client(server: TestServer, credentials: Credentials): S3Client {
  return new S3Client({
    region: REGION,
    endpoint: `${server.url}/s3`,
    forcePathStyle: true,
    credentials,
    maxAttempts: 1,
  })
}

function identityClient(server: TestServer) {
  return new CognitoIdentityClient({
    region: REGION,
    endpoint: `${server.url}/cognito-identity`,
    credentials: { accessKeyId: 'unused', secretAccessKey: 'unused' },
  })
}

async function credentialsFor(
  server: TestServer,
  logins?: Record<string, string>,
): Promise<Person> {
  const client = identityClient(server)
  const { IdentityId } = await client.send(
    new GetIdCommand({ IdentityPoolId: IDENTITY_POOL_ID, Logins: logins }),
  )
  const { Credentials } = await client.send(
    new GetCredentialsForIdentityCommand({ IdentityId, Logins: logins }),
  )
  if (!IdentityId || !Credentials?.AccessKeyId || !Credentials.SecretKey) {
    throw new Error('the identity pool gave no credentials')
  }
  const credentials = {
    accessKeyId: Credentials.AccessKeyId,
    secretAccessKey: Credentials.SecretKey,
    sessionToken: Credentials.SessionToken,
  }
  return { identityId: IdentityId, credentials, s3: s3Client(server, credentials) }
}

/** A guest: the identity pool's unauthenticated identity and credentials. */
export function guest(server: TestServer): Promise<Person> {
  return credentialsFor(server)
}

/** A new signed-in user with their identity pool credentials. */
export async function signedInUser(
  server: TestServer,
  prefix = 's3u',
): Promise<Person & { username: string; tokens: Awaited<ReturnType<typeof signIn>> }> {
  const account = await registerUser(server, newAccount(prefix))
  const tokens = await signIn(server, account.username, account.password)
  const person = await credentialsFor(server, {
    [`cognito-idp.${REGION}.amazonaws.com/${POOL_ID}`]: tokens.IdToken,
  })
  return { ...person, username: account.username, tokens }
}

/** A new signed-in user with their credentials and the cookie of their signed-in pages. */
export async function signedInPageUser(server: TestServer, prefix: string) {
  const signedIn = await signedInUser(server, prefix)
  const cookie = amplifyCookieHeader(CLIENT_ID, signedIn.username, {
    accessToken: signedIn.tokens.AccessToken,
    idToken: signedIn.tokens.IdToken,
  })
  return { ...signedIn, cookie }
}

export function root(server: TestServer): Person {
  return { identityId: 'root', credentials: ROOT, s3: s3Client(server, ROOT) }
}

/** Runs a call expected to fail, and checks the S3 error code (and status) it failed with. */
export async function expectS3Error(
  call: Promise<unknown>,
  code: string | undefined,
  status?: number,
): Promise<S3ServiceException> {
  try {
    await call
  } catch (error) {
    if (!(error instanceof S3ServiceException)) throw error
    if (code !== undefined) expect(error.name).toBe(code)
    if (status !== undefined) expect(error.$metadata.httpStatusCode).toBe(status)
    return error
  }
  throw new Error(`expected ${code}, but the call succeeded`)
}

export async function bodyText(body: { transformToString(): Promise<string> } | undefined) {
  if (!body) throw new Error('no body')
  return body.transformToString()
}

export type SignedRequestOptions = {
  method: string
  /** Path below /s3, with its query, percent-encoded as it goes on the wire. */
  path: string
  headers?: Record<string, string>
  body?: string
  /** x-amz-content-sha256; by default the body's SHA-256. */
  payloadHash?: string
  credentials?: Credentials
  signingDate?: Date
}

/** A request signed as the SDK would sign it, for bodies and headers the SDK will not produce. */
export async function signRequest(server: TestServer, options: SignedRequestOptions) {
  const url = new URL(`${server.url}/s3${options.path}`)
  const body = options.body ?? ''
  const payloadHash = options.payloadHash ?? createHash('sha256').update(body).digest('hex')
  const signer = new SignatureV4({
    credentials: options.credentials ?? ROOT,
    region: REGION,
    service: 's3',
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: false,
  })
  const query: Record<string, string> = {}
  for (const [name, value] of url.searchParams) query[name] = value
  const signed = await signer.sign(
    {
      method: options.method,
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      query,
      headers: { host: url.host, 'x-amz-content-sha256': payloadHash, ...options.headers },
      body,
    },
    { signingDate: options.signingDate },
  )
  return { url: url.toString(), headers: signed.headers as Record<string, string>, body }
}

export async function signedFetch(server: TestServer, options: SignedRequestOptions) {
  const { url, headers, body } = await signRequest(server, options)
  const { host: _, ...sendable } = headers
  const response = await fetch(url, {
    method: options.method,
    headers: sendable,
    body: options.method === 'GET' || options.method === 'HEAD' ? undefined : body,
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    text,
    code: /<Code>(\w+)<\/Code>/.exec(text)?.[1],
  }
}
