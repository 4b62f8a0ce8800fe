import { setFlagsFromString } from 'node:v8'

/**
 * Imported first by the process entries (server/main.ts, and the benchmark's server process).
 * Request and response bodies pass through short-lived ArrayBuffers, and V8 by default starts a
 * full collection for every few MiB of them however small the heap's growth: with the site's
 * heap that was a sixth of a 1 MiB upload's server time. Counting that memory within the heap's
 * own growing limit collects as often as the heap needs (docs/decisions/010).
 */
setFlagsFromString('--external-memory-accounted-in-global-limit')
