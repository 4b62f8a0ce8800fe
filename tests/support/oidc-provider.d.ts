/** The part of oidc-provider (which ships no types) that the test's stand-in for Google uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  type Account = { accountId: string; claims(): Promise<Record<string, unknown>> }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    callback(): (request: IncomingMessage, response: ServerResponse) => void
    on(event: string, listener: (...args: unknown[]) => void): this
  }
  export type { Account }
}
