import { SIGN_UP_COOKIE } from '../../../server/identity/oauth/cookies.ts'

/** Does this browser have a first Google sign-in waiting for its username? */
export function hasPendingGoogleSignUp(request: Request): boolean {
  return (request.headers.get('cookie') ?? '')
    .split(';')
    .some((pair) => pair.trimStart().startsWith(`${SIGN_UP_COOKIE}=`))
}
