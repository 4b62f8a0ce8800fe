/**
 * The test server's clock: the system clock plus an offset a test moves forward, so what
 * waits for time (TOTP steps, token and code expiry, lockouts) is tested without waiting.
 * Time still flows between calls, as it does for the clients talking to the server.
 */
export type TestClock = {
  now(): number
  /** Moves the server's time forward; never back, as a real clock would not. */
  advance(ms: number): void
}

export function testClock(): TestClock {
  let offset = 0
  return {
    now: () => Date.now() + offset,
    advance(ms) {
      if (!(ms >= 0)) throw new Error(`a clock moves forward, not by ${ms} ms`)
      offset += ms
    },
  }
}
