import { Agent, type IncomingMessage, request } from 'node:http'
import { expect, it } from 'vitest'
import { signedInPageUser, startStorageServer } from '#tests/integration/storage/support.ts'

/**
 * Closing the server while a signed-in page is still being sent (streamed, compressed) to a
 * keep-alive client that has not read it: close() must end that connection once the answer is
 * out, not wait for the client's keep-alive to time out (a minute and more).
 */
it('closes once the answers in flight are sent, ending their keep-alive connections', async () => {
  const server = await startStorageServer()
  const user = await signedInPageUser(server, 'closing')
  const answer = await new Promise<IncomingMessage>((resolve, reject) => {
    const headers = { cookie: user.cookie, 'accept-encoding': 'gzip' }
    request(`${server.url}/settings`, { headers, agent: new Agent({ keepAlive: true }) }, resolve)
      .on('error', reject)
      .end()
  })
  expect(answer.statusCode).toBe(200)
  expect(answer.headers['content-encoding']).toBe('gzip')
  // The body is left unread: close() starts while the answer may still be on its way.
  await server.close()
}, 20_000)
