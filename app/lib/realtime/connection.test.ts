import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openConnection, retryDelay } from './connection.ts'

describe('retryDelay', () => {
  it('doubles from half a second up to 30 s, half of each wait random', () => {
    const lowest = [0, 1, 2, 3, 6, 7, 20].map((attempt) => retryDelay(attempt, () => 0))
    const highest = [0, 1, 2, 3, 6, 7, 20].map((attempt) => retryDelay(attempt, () => 1))
    expect(lowest).toEqual([250, 500, 1_000, 2_000, 15_000, 15_000, 15_000])
    expect(highest).toEqual([500, 1_000, 2_000, 4_000, 30_000, 30_000, 30_000])
  })

  it('spreads the tabs a restart dropped at once', () => {
    const waits = new Set(Array.from({ length: 50 }, () => retryDelay(4)))
    expect(waits.size).toBeGreaterThan(10)
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(4_000)
  })
})

/**
 * The reconnection schedule, with the socket standing in for the browser's (its handshake's
 * outcome is what the test decides) and the timers under the test's control.
 */
describe('openConnection', () => {
  type Script = { ready: boolean; closeCode: number }
  function harness(scripts: Script[]) {
    const openedAt: number[] = []
    const sockets: { onmessage?: unknown; onclose?: unknown; onerror?: unknown }[] = []
    const connection = openConnection({
      url: 'ws://site.example/realtime',
      random: () => 0,
      onEvent() {},
      onCatchUp() {},
      createSocket() {
        const script = scripts[openedAt.length] ?? { ready: false, closeCode: 4401 }
        openedAt.push(Date.now())
        const socket = {
          send() {},
          close() {},
        } as unknown as WebSocket
        sockets.push(socket)
        setTimeout(() => {
          if (script.ready) {
            socket.onmessage?.({
              data: JSON.stringify({ type: 'ready', data: { heartbeatMs: 60_000 } }),
            } as MessageEvent)
          }
          setTimeout(() => socket.onclose?.({ code: script.closeCode } as CloseEvent), 10)
        }, 10)
        return socket
      },
    })
    return { openedAt, connection }
  }

  beforeEach(() => {
    vi.useFakeTimers({ now: 0 })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('backs off from a handshake refused for want of a session, every time', async () => {
    const { openedAt, connection } = harness([])
    await vi.advanceTimersByTimeAsync(10_000)
    connection.close()
    const waits = openedAt.slice(1).map((at, index) => at - (openedAt[index] ?? 0) - 20)
    // 250, 500, 1,000, 2,000, 4,000 ms: a signed-out page does not hammer the server.
    expect(waits.slice(0, 5)).toEqual([250, 500, 1_000, 2_000, 4_000])
  })

  it('reconnects at once when a session expires on an open socket', async () => {
    const { openedAt, connection } = harness([
      { ready: false, closeCode: 4401 },
      { ready: false, closeCode: 4401 },
      { ready: true, closeCode: 4401 },
      { ready: true, closeCode: 1000 },
    ])
    await vi.advanceTimersByTimeAsync(5_000)
    connection.close()
    const waits = openedAt.slice(1).map((at, index) => at - (openedAt[index] ?? 0) - 20)
    // Two refused handshakes back off; the session that expired while open starts again.
    expect(waits.slice(0, 3)).toEqual([250, 500, 250])
  })
})
