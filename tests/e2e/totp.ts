import { totpCode as codeForStep, totpStep } from '#server/identity/totp.ts'

/** The code an authenticator app shows at a time (the test server's clock, for the server to accept it). */
export function totpCode(base32Secret: string, at: number): string {
  return codeForStep(base32Secret, totpStep(at))
}
