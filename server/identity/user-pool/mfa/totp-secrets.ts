import { hkdfSync } from 'node:crypto'
import { createSecretBox, type SecretBox } from '#server/identity/secret-box.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'

/**
 * Authenticator-app secrets must be read back to check codes, so they are sealed (AES-256-GCM)
 * rather than hashed, with a key derived from the pool's HMAC secret (the signing-keys file
 * every instance behind one issuer shares).
 */
const boxes = new WeakMap<Buffer, SecretBox>()

function boxFor(ctx: UserPoolContext): SecretBox {
  const secret = ctx.keys.secret
  let box = boxes.get(secret)
  if (!box) {
    const key = Buffer.from(
      hkdfSync('sha256', secret, Buffer.alloc(0), 'user-pool totp secret', 32),
    )
    box = createSecretBox(key)
    boxes.set(secret, box)
  }
  return box
}

export function sealTotpSecret(ctx: UserPoolContext, secret: string): string {
  return boxFor(ctx).seal(secret)
}

/** The base32 secret, or undefined when there is none or it cannot be opened. */
export function openTotpSecret(ctx: UserPoolContext, sealed: string | null): string | undefined {
  if (!sealed) return undefined
  try {
    return boxFor(ctx).open(sealed)
  } catch {
    return undefined
  }
}
