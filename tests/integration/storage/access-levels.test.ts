import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, guest, type Person, root, signedInUser, startStorageServer } from './support.ts'

/**
 * The access-level table (seed §6, docs/decisions/011) through the real endpoint, every cell:
 * each action on each level for a guest, the owner, another signed-in user, the root credential
 * and an unsigned request.
 */

let server: TestServer
const people: Record<'guest' | 'owner' | 'other' | 'root', Person> = {} as never

beforeAll(async () => {
  server = await startStorageServer()
  people.guest = await guest(server)
  people.owner = await signedInUser(server, 'own')
  people.other = await signedInUser(server, 'oth')
  people.root = root(server)
})
afterAll(async () => {
  await server?.close()
})

type Who = 'anonymous' | keyof typeof people
type Level = 'public' | 'protected' | 'private' | 'elsewhere'
type Action = 'read' | 'list' | 'create' | 'overwrite' | 'delete' | 'copy from' | 'copy to'
const WHO: Who[] = ['anonymous', 'guest', 'owner', 'other', 'root']

/** The level's directory for the owner: public/ is shared, protected/ and private/ are per identity. */
function directory(level: Level): string {
  const id = people.owner.identityId
  return {
    public: 'public/',
    protected: `protected/${id}/`,
    private: `private/${id}/`,
    elsewhere: 'elsewhere/',
  }[level]
}

const allow = (...who: Who[]) => new Set(who)
const TABLE: Record<Level, Record<Action, Set<Who>>> = {
  public: {
    read: allow('anonymous', 'guest', 'owner', 'other', 'root'),
    list: allow('guest', 'owner', 'other', 'root'),
    create: allow('owner', 'other', 'root'),
    overwrite: allow('owner', 'root'),
    delete: allow('owner', 'root'),
    'copy from': allow('owner', 'other', 'root'),
    'copy to': allow('owner', 'other', 'root'),
  },
  protected: {
    read: allow('owner', 'other', 'root'),
    list: allow('owner', 'other', 'root'),
    create: allow('owner', 'root'),
    overwrite: allow('owner', 'root'),
    delete: allow('owner', 'root'),
    'copy from': allow('owner', 'other', 'root'),
    'copy to': allow('owner', 'root'),
  },
  private: {
    read: allow('owner', 'root'),
    list: allow('owner', 'root'),
    create: allow('owner', 'root'),
    overwrite: allow('owner', 'root'),
    delete: allow('owner', 'root'),
    'copy from': allow('owner', 'root'),
    'copy to': allow('owner', 'root'),
  },
  elsewhere: {
    read: allow('root'),
    list: allow('root'),
    create: allow('root'),
    overwrite: allow('root'),
    delete: allow('root'),
    'copy from': allow('root'),
    'copy to': allow('root'),
  },
}

let counter = 0
/** An object at the level, written by its owner (root for the level nobody else may write). */
async function seeded(level: Level): Promise<string> {
  counter += 1
  const key = `${directory(level)}seed-${counter}.txt`
  const writer = level === 'elsewhere' ? people.root : people.owner
  await writer.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'seeded' }))
  return key
}

/** Somewhere the caller may always write, as the target of copies that test their source. */
const writable = (who: Who) =>
  who === 'root'
    ? 'elsewhere/copies/'
    : `private/${who === 'other' ? people.other.identityId : people.owner.identityId}/copies/`

/** An unsigned request, as a browser's <img> or a bare fetch would make. */
async function anonymous(method: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/s3/${BUCKET}/${path}`, {
    method,
    headers,
    body: method === 'PUT' ? 'anonymous' : undefined,
  })
  const text = await response.text()
  return response.ok
    ? 'allowed'
    : (/<Code>(\w+)<\/Code>/.exec(text)?.[1] ?? String(response.status))
}

async function attempt(who: Who, action: Action, level: Level): Promise<string> {
  counter += 1
  const fresh = `${directory(level)}new-${counter}.txt`
  const key = action === 'create' || action === 'copy to' ? fresh : await seeded(level)
  if (who === 'anonymous') {
    if (action === 'read') return anonymous('GET', key)
    if (action === 'list')
      return anonymous('GET', `?list-type=2&prefix=${encodeURIComponent(directory(level))}`)
    if (action === 'delete') return anonymous('DELETE', key)
    if (action === 'copy from' || action === 'copy to') {
      const source = action === 'copy to' ? await seeded('public') : key
      return anonymous('PUT', action === 'copy to' ? key : `${writable('owner')}x`, {
        'x-amz-copy-source': `${BUCKET}/${source}`,
      })
    }
    return anonymous('PUT', key)
  }
  const s3 = people[who].s3
  try {
    if (action === 'read') await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
    else if (action === 'list')
      await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: directory(level) }))
    else if (action === 'delete')
      await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }))
    else if (action === 'copy from') {
      await s3.send(
        new CopyObjectCommand({
          Bucket: BUCKET,
          Key: `${writable(who)}${counter}`,
          CopySource: `${BUCKET}/${key}`,
        }),
      )
    } else if (action === 'copy to') {
      const source = await seeded('public')
      await s3.send(
        new CopyObjectCommand({ Bucket: BUCKET, Key: key, CopySource: `${BUCKET}/${source}` }),
      )
    } else await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: who }))
    return 'allowed'
  } catch (error) {
    if (error instanceof S3ServiceException) return error.name
    throw error
  }
}

describe('the access-level table through /s3', () => {
  for (const level of Object.keys(TABLE) as Level[]) {
    for (const action of Object.keys(TABLE[level]) as Action[]) {
      for (const who of WHO) {
        // A guest never has a writable place to copy into; its copy-from cell is a write denial.
        const expected =
          TABLE[level][action].has(who) && !(who === 'guest' && action === 'copy from')
        it(`${action} ${level}: ${who} ${expected ? 'allowed' : 'denied'}`, async () => {
          expect(await attempt(who, action, level)).toBe(expected ? 'allowed' : 'AccessDenied')
        })
      }
    }
  }

  it('keeps a denied write from changing anything', async () => {
    const key = await seeded('public')
    expect(await attempt('other', 'overwrite', 'public')).toBe('AccessDenied')
    const answer = await people.owner.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
    expect(await answer.Body?.transformToString()).toBe('seeded')
  })

  it("lets nobody list another identity's private prefix by a shorter prefix", async () => {
    const prefix = `private/${people.owner.identityId.slice(0, -1)}`
    await expect(
      people.other.s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix })),
    ).rejects.toMatchObject({ name: 'AccessDenied' })
  })
})
