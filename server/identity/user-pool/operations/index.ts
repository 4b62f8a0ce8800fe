import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { adminOperations } from './admin.ts'
import { attributeOperations } from './attributes.ts'
import { authenticationOperations } from './authentication.ts'
import { deviceOperations } from './devices.ts'
import { mfaOperations } from './mfa.ts'
import { passwordOperations } from './passwords.ts'
import { signOutOperations } from './sign-out.ts'
import { signUpOperations } from './sign-up.ts'
import { userOperations } from './user.ts'

/** Every operation of `AWSCognitoIdentityProviderService` this pool answers, by name. */
export function userPoolOperations(ctx: UserPoolContext) {
  return {
    ...signUpOperations(ctx),
    ...authenticationOperations(ctx),
    ...signOutOperations(ctx),
    ...userOperations(ctx),
    ...attributeOperations(ctx),
    ...mfaOperations(ctx),
    ...deviceOperations(ctx),
    ...passwordOperations(ctx),
    ...adminOperations(ctx),
  }
}
