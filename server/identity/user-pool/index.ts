/**
 * The Cognito-compatible user pool (`AWSCognitoIdentityProviderService`): accounts, sign-in
 * flows and challenges, tokens. `plugin.ts` is its HTTP face; `adminCreateUser` is callable
 * from inside the process.
 */
export { poolNameOf, type UserPoolContext, type UserPoolLog } from './context.ts'
export { sweepExpired } from './maintenance.ts'
export {
  type AdminCreateUserInput,
  adminCreateUser,
  adminCreateUserInput,
} from './operations/admin.ts'
export { userPoolPlugin } from './plugin.ts'
