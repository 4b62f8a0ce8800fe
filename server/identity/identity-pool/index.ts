import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { IdentitySettings } from '#server/config.ts'
import { awsJsonService } from '#server/identity/aws-json-protocol.ts'
import { CognitoError, notAuthorized } from '#server/identity/cognito-error.ts'
import type { SecretBox } from '#server/identity/secret-box.ts'
import { issueCredentials } from './credentials.ts'
import {
  createGuestIdentity,
  findIdentity,
  identityForLogin,
  signInGuest,
  touchIdentity,
  userPoolProvider,
} from './identities.ts'

/** Checks a user pool id token; resolves to its subject, or undefined when it is not valid. */
export type IdTokenVerifier = (token: string) => Promise<{ sub: string } | undefined>

export type IdentityPoolOptions = {
  settings: IdentitySettings
  db: Kysely<DB>
  secretBox: SecretBox
  verifyIdToken: IdTokenVerifier
  now?: () => number
}

const logins = z
  .record(z.string().min(1).max(128), z.string().min(1).max(50_000))
  .refine((value) => Object.keys(value).length <= 10, 'at most 10 logins')
  .optional()

const getIdInput = z.object({
  AccountId: z.string().max(15).optional(),
  IdentityPoolId: z.string().min(1).max(55),
  Logins: logins,
})

const getCredentialsInput = z.object({
  IdentityId: z.string().min(1).max(55),
  Logins: logins,
  CustomRoleArn: z.string().max(2048).optional(),
})

/**
 * The Cognito-compatible identity pool at /cognito-identity: guests and signed-in users of our
 * user pool get an identity id and temporary credentials that the object store accepts.
 */
export async function identityPoolPlugin(
  app: FastifyInstance,
  options: IdentityPoolOptions,
): Promise<void> {
  // Long by design: one plugin registering the pool's routes; each handler is its own closure.
  const { settings, db, secretBox } = options
  const now = options.now ?? Date.now
  // Logins may name our pool by our issuer (what Amplify derives from the token's `iss`) or in
  // the AWS form; both mean the same provider, so identities are keyed by the AWS form.
  const providerName = userPoolProvider(settings)
  const acceptedProviders = new Set([providerName, settings.issuer.replace(/^https?:\/\//, '')])

  /** The login (`{provider}|{sub}`) the Logins map proves, or undefined for a guest. */
  async function loginOf(map: Record<string, string> | undefined): Promise<string | undefined> {
    const entries = Object.entries(map ?? {})
    if (entries.length === 0) return undefined
    let login: string | undefined
    for (const [provider, token] of entries) {
      if (!acceptedProviders.has(provider)) {
        throw notAuthorized(
          'Invalid login token. The provider is not configured for this identity pool.',
        )
      }
      const claims = await options.verifyIdToken(token)
      if (!claims)
        throw notAuthorized('Invalid login token. Not a valid OpenId Connect identity token.')
      const next = `${providerName}|${claims.sub}`
      if (login && login !== next)
        throw notAuthorized('Invalid login token. The logins name different users.')
      login = next
    }
    return login
  }

  await app.register(awsJsonService, {
    targetPrefix: 'AWSCognitoIdentityService',
    operations: {
      GetId: {
        input: getIdInput,
        async handle(input: z.infer<typeof getIdInput>) {
          if (input.IdentityPoolId !== settings.identityPoolId) {
            throw new CognitoError(
              'ResourceNotFoundException',
              `IdentityPool '${input.IdentityPoolId}' not found.`,
            )
          }
          const login = await loginOf(input.Logins)
          if (login)
            return {
              IdentityId: (await identityForLogin(db, settings.region, login, now())).identityId,
            }
          if (!settings.guestCredentials) {
            throw notAuthorized('Unauthenticated access is not supported for this identity pool.')
          }
          return { IdentityId: (await createGuestIdentity(db, settings.region, now())).identityId }
        },
      },
      GetCredentialsForIdentity: {
        input: getCredentialsInput,
        async handle(input: z.infer<typeof getCredentialsInput>) {
          const found = await findIdentity(db, input.IdentityId)
          if (!found) {
            throw new CognitoError(
              'ResourceNotFoundException',
              `Identity '${input.IdentityId}' not found.`,
            )
          }
          const login = await loginOf(input.Logins)
          const forbidden = notAuthorized(`Access to Identity '${input.IdentityId}' is forbidden.`)
          let identity = found
          if (found.login === null && login) {
            // A guest who signed in: linked to the login, or merged into the login's identity.
            identity = (await signInGuest(db, found.identityId, login, now())) ?? found
            if (identity.login !== login) throw forbidden
          } else if (found.login !== (login ?? null)) {
            throw forbidden
          } else if (!login && !settings.guestCredentials) {
            throw notAuthorized('Unauthenticated access is not supported for this identity pool.')
          }
          await touchIdentity(db, identity.identityId, now())
          const credentials = await issueCredentials(
            db,
            secretBox,
            { identityId: identity.identityId, authenticated: login !== undefined },
            now(),
          )
          return { IdentityId: identity.identityId, Credentials: credentials }
        },
      },
    },
  })
}
