// The child process of features/plans/renewal-kill.server.test.ts: runs one renewal pass on the database the
// test names, at the moment it names, and stops dead at one point of it: `charged` right after
// the provider made the charge, `recording` inside the transaction that records it (once the
// subscription's new period is written, before the commit). There it prints the point's name
// and waits for ever, so the test can SIGKILL it exactly there.
import {
  type KyselyPlugin,
  type QueryId,
  type RootOperationNode,
  TableNode,
  UpdateQueryNode,
} from 'kysely'
import { type DatabaseSettings, openDatabase } from '#db/database.ts'
import { testPrices } from '#features/plans/billing-test-support.ts'
import { runDueRenewals } from '#features/plans/renewal.server.ts'
import { createEmbeddedGateway } from '#server/payments/embedded-gateway.ts'
import type { CardGateway } from '#server/payments/gateway.ts'

const [settingsJson, nowText, stage] = process.argv.slice(2)
if (!settingsJson || !nowText || (stage !== 'charged' && stage !== 'recording'))
  throw new Error('usage: renewal-child settings now charged|recording')
const now = Number(nowText)

// Kept alive by stdin (no timer): the test ends it with SIGKILL, or its own end closes the pipe.
process.stdin.on('end', () => process.exit(1))
process.stdin.resume()
const stopHere = async (point: string): Promise<never> => {
  process.stdout.write(`${point}\n`)
  return new Promise<never>(() => {})
}

const { db } = openDatabase(JSON.parse(settingsJson) as DatabaseSettings)
const provider = createEmbeddedGateway(db, () => now)
const gateway: CardGateway =
  stage === 'charged'
    ? {
        ...provider,
        charge: async (request) => {
          await provider.charge(request)
          return stopHere('charged')
        },
      }
    : provider

// Stops after the update of `subscriptions`, which only the recording transaction makes.
const updatesOfSubscriptions = new Set<QueryId>()
const stopWhileRecording: KyselyPlugin = {
  transformQuery({ node, queryId }): RootOperationNode {
    if (
      UpdateQueryNode.is(node) &&
      node.table &&
      TableNode.is(node.table) &&
      node.table.table.identifier.name === 'subscriptions'
    ) {
      updatesOfSubscriptions.add(queryId)
    }
    return node
  },
  async transformResult({ queryId, result }) {
    if (updatesOfSubscriptions.has(queryId)) await stopHere('recording')
    return result
  },
}

await runDueRenewals({
  db: stage === 'recording' ? db.withPlugin(stopWhileRecording) : db,
  gateway,
  prices: testPrices,
  now: () => now,
})
throw new Error(`the renewal pass ended without reaching ${stage}`)
