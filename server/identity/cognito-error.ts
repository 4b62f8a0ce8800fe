/**
 * The one error type of the Cognito-compatible endpoints. Sent as `{"__type", "message"}`
 * with the `x-amzn-ErrorType` header, which is what the AWS clients read the error name from.
 */
export class CognitoError extends Error {
  readonly type: string
  readonly status: number

  constructor(type: string, message: string, status = 400) {
    super(message)
    this.name = type
    this.type = type
    this.status = status
  }

  toJSON() {
    return { __type: this.type, message: this.message }
  }
}

export const invalidParameter = (message: string) =>
  new CognitoError('InvalidParameterException', message)
export const notAuthorized = (message = 'Incorrect username or password.') =>
  new CognitoError('NotAuthorizedException', message)
export const resourceNotFound = (message: string) =>
  new CognitoError('ResourceNotFoundException', message)
export const internalError = () =>
  new CognitoError('InternalErrorException', 'An internal error occurred.', 500)
