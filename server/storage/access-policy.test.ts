import { describe, expect, it } from 'vitest'
import { type Action, type Caller, isAllowed } from './access-policy.ts'

const prefixes = { public: 'public/', protected: 'protected/', private: 'private/' }
const OWNER = 'ap-northeast-1:00000000-0000-4000-8000-00000000000a'
const OTHER = 'ap-northeast-1:00000000-0000-4000-8000-00000000000b'
const GUEST = 'ap-northeast-1:00000000-0000-4000-8000-00000000000c'

const callers: Record<string, Caller> = {
  anonymous: { kind: 'anonymous' },
  guest: { kind: 'guest', identityId: GUEST },
  owner: { kind: 'user', identityId: OWNER },
  other: { kind: 'user', identityId: OTHER },
  root: { kind: 'root' },
}
type Who = keyof typeof callers
const allow = (...who: Who[]) => new Set<Who>(who)

/**
 * Each row: an action on a key (or list prefix) with the object's current owner, and who may.
 * "owner" is the signed-in identity the key belongs to (or who uploaded a public object).
 */
const table: [Action, string, string | undefined, Set<Who>][] = [
  ['read', 'public/a.png', OWNER, allow('anonymous', 'guest', 'owner', 'other', 'root')],
  ['list', 'public/', undefined, allow('guest', 'owner', 'other', 'root')],
  ['list', 'public/photos/', undefined, allow('guest', 'owner', 'other', 'root')],
  ['write', 'public/new.png', undefined, allow('owner', 'other', 'root')],
  ['write', 'public/a.png', OWNER, allow('owner', 'root')],
  ['delete', 'public/a.png', OWNER, allow('owner', 'root')],
  ['delete', 'public/missing.png', undefined, allow('owner', 'other', 'root')],
  ['read', `protected/${OWNER}/a.png`, OWNER, allow('owner', 'other', 'root')],
  ['list', `protected/${OWNER}/`, undefined, allow('owner', 'other', 'root')],
  ['list', 'protected/', undefined, allow('owner', 'other', 'root')],
  ['write', `protected/${OWNER}/a.png`, undefined, allow('owner', 'root')],
  ['delete', `protected/${OWNER}/a.png`, OWNER, allow('owner', 'root')],
  ['read', `private/${OWNER}/a.png`, OWNER, allow('owner', 'root')],
  ['list', `private/${OWNER}/`, undefined, allow('owner', 'root')],
  ['list', `private/${OWNER}`, undefined, allow('root')],
  ['list', 'private/', undefined, allow('root')],
  ['write', `private/${OWNER}/a.png`, undefined, allow('owner', 'root')],
  ['delete', `private/${OWNER}/a.png`, OWNER, allow('owner', 'root')],
  ['read', `private/${GUEST}/a.png`, undefined, allow('root')],
  ['write', `private/${GUEST}/a.png`, undefined, allow('root')],
  ['write', `protected/${GUEST}/a.png`, undefined, allow('root')],
  ['read', 'other/a.png', undefined, allow('root')],
  ['write', 'other/a.png', undefined, allow('root')],
  ['list', '', undefined, allow('root')],
  ['list', 'pub', undefined, allow('root')],
  ['read', 'publicity/a.png', undefined, allow('root')],
  ['bucket', '', undefined, allow('root')],
]

describe('the access-level table', () => {
  for (const [action, key, owner, allowed] of table) {
    for (const [who, caller] of Object.entries(callers) as [Who, Caller][]) {
      const expected = allowed.has(who)
      it(`${action} ${key || '(everything)'}${owner ? ` owned by ${owner === OWNER ? 'owner' : owner}` : ''}: ${who} ${expected ? 'allowed' : 'denied'}`, () => {
        expect(isAllowed(prefixes, { action, key, caller, owner })).toBe(expected)
      })
    }
  }

  it('follows configured prefixes', () => {
    const custom = { public: 'pub/', protected: 'shared/', private: 'mine/' }
    const owner = callers.owner as Caller
    expect(isAllowed(custom, { action: 'write', key: `mine/${OWNER}/a`, caller: owner })).toBe(true)
    expect(isAllowed(custom, { action: 'write', key: `private/${OWNER}/a`, caller: owner })).toBe(
      false,
    )
    expect(isAllowed(custom, { action: 'read', key: 'pub/a', caller: { kind: 'anonymous' } })).toBe(
      true,
    )
  })
})
