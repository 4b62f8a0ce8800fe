import type { StorageSettings } from '#server/config.ts'
import type { CredentialsOwner } from '#server/identity/identity-pool/credentials.ts'
import type { Caller } from './access-policy.ts'
import type { PayloadAuth } from './payload.ts'
import { accessDenied, S3Error } from './s3-error.ts'
import { checkTime, type RawRequest, readSignedRequest, verifySignature } from './sigv4.ts'

export type FindCredentials = (
  accessKeyId: string,
  sessionToken: string,
) => Promise<CredentialsOwner | undefined>

export type Authenticated = { caller: Caller; auth: PayloadAuth }

const unknownKey = (accessKeyId: string) =>
  new S3Error(
    'InvalidAccessKeyId',
    'The AWS Access Key Id you provided does not exist in our records.',
    403,
    { AWSAccessKeyId: accessKeyId },
  )

/**
 * Who sent the request: the root credential, an identity pool identity (its temporary
 * credentials, session token required), or nobody (no signature at all).
 */
export async function authenticate(
  request: RawRequest,
  settings: StorageSettings,
  findCredentials: FindCredentials,
  now: number,
): Promise<Authenticated> {
  const signed = readSignedRequest(request)
  if (!signed) return { caller: { kind: 'anonymous' }, auth: { signed: undefined, key: undefined } }
  checkTime(signed, now, settings.presignMaxSeconds)
  if (signed.scope.region !== settings.region) {
    throw new S3Error(
      signed.kind === 'header'
        ? 'AuthorizationHeaderMalformed'
        : 'AuthorizationQueryParametersError',
      `The authorization header is malformed; the region '${signed.scope.region}' is wrong; expecting '${settings.region}'`,
      400,
      { Region: settings.region },
    )
  }
  const root = settings.root
  if (root && signed.accessKeyId === root.accessKeyId) {
    const key = verifySignature(request, signed, root.secretAccessKey)
    return { caller: { kind: 'root' }, auth: { signed, key } }
  }
  if (!signed.sessionToken) throw unknownKey(signed.accessKeyId)
  const owner = await findCredentials(signed.accessKeyId, signed.sessionToken)
  if (!owner) throw unknownKey(signed.accessKeyId)
  const key = verifySignature(request, signed, owner.secretAccessKey)
  // A suspended user's credentials stay signed correctly until they expire; refused at once.
  if (owner.userDisabled) throw accessDenied()
  const caller: Caller = owner.authenticated
    ? { kind: 'user', identityId: owner.identityId }
    : { kind: 'guest', identityId: owner.identityId }
  return { caller, auth: { signed, key } }
}
