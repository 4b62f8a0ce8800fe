/**
 * `npm run bench` (second part): full SRP sign-ins against the user pool — InitiateAuth
 * (USER_SRP_AUTH) and RespondToAuthChallenge (PASSWORD_VERIFIER) over HTTP — per second and
 * their p99, beside the cost of the server's modular exponentiations alone, measured in the
 * same run. The server is one Node process (one core for its JavaScript and OpenSSL calls);
 * the client's SRP math runs in this process, on the other core.
 *
 * Environment: BENCH_DURATION_S (default 5), BENCH_CONNECTIONS (concurrent sign-in loops,
 * default 4).
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDatabase } from '#db/database.ts'
import { loadConfig } from '#server/config.ts'
import {
  claimSignature,
  clientEphemeral,
  clientSessionKey,
  createVerifier,
  formatSrpTimestamp,
  modPowN,
  N,
  powG,
} from '#server/identity/srp.ts'
import { listOutbox } from '#server/mail/outbox.ts'
import { appEnvironment } from './environment.ts'
import { BenchError, runBench, startServer } from './servers.ts'

const durationS = Number(process.env.BENCH_DURATION_S ?? 5)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 4)
const PASSWORD = 'Bench#Password9'

type Pool = { url: string; clientId: string; poolName: string }

async function cognito(
  pool: Pool,
  operation: string,
  body: object,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${pool.url}/cognito-idp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
    },
    body: JSON.stringify(body),
  })
  const answer = (await response.json()) as Record<string, unknown>
  if (!response.ok) throw new BenchError(`${operation}: ${answer.__type} ${answer.message}`)
  return answer
}

async function signIn(pool: Pool, username: string): Promise<void> {
  const { aHex, AHex } = clientEphemeral()
  const challenge = await cognito(pool, 'InitiateAuth', {
    AuthFlow: 'USER_SRP_AUTH',
    ClientId: pool.clientId,
    AuthParameters: { USERNAME: username, SRP_A: AHex },
  })
  const parameters = challenge.ChallengeParameters as Record<string, string>
  const user = parameters.USER_ID_FOR_SRP as string
  const key = clientSessionKey({
    aHex,
    AHex,
    BHex: parameters.SRP_B as string,
    saltHex: parameters.SALT as string,
    realm: pool.poolName,
    user,
    secret: PASSWORD,
  })
  if (!key) throw new BenchError('the server sent an unusable B')
  const timestamp = formatSrpTimestamp(Date.now())
  const result = await cognito(pool, 'RespondToAuthChallenge', {
    ChallengeName: 'PASSWORD_VERIFIER',
    ClientId: pool.clientId,
    Session: challenge.Session,
    ChallengeResponses: {
      USERNAME: user,
      TIMESTAMP: timestamp,
      PASSWORD_CLAIM_SECRET_BLOCK: parameters.SECRET_BLOCK,
      PASSWORD_CLAIM_SIGNATURE: claimSignature(
        key,
        pool.poolName,
        user,
        parameters.SECRET_BLOCK as string,
        timestamp,
      ),
    },
  })
  if (!(result.AuthenticationResult as { AccessToken?: string } | undefined)?.AccessToken) {
    throw new BenchError('sign-in ended without tokens')
  }
}

async function registerUsers(pool: Pool, dataDir: string, count: number): Promise<string[]> {
  const config = loadConfig(appEnvironment(dataDir))
  const database = openDatabase(config.database)
  try {
    const usernames: string[] = []
    for (let index = 0; index < count; index++) {
      const username = `bench_${randomBytes(4).toString('hex')}`
      const email = `${username}@example.com`
      await cognito(pool, 'SignUp', {
        ClientId: pool.clientId,
        Username: username,
        Password: PASSWORD,
        UserAttributes: [{ Name: 'email', Value: email }],
      })
      const [mail] = await listOutbox(database.db, { to: email, limit: 1 })
      const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1]
      if (!code) throw new BenchError(`no confirmation code was mailed to ${email}`)
      await cognito(pool, 'ConfirmSignUp', {
        ClientId: pool.clientId,
        Username: username,
        ConfirmationCode: code,
      })
      usernames.push(username)
    }
    return usernames
  } finally {
    await database.close()
  }
}

/** Milliseconds of the server's three exponentiations per sign-in: g^b, v^u, (A·v^u)^b. */
function exponentiationsOnly(iterations: number): number {
  const { verifierHex } = createVerifier('Bench', 'user', PASSWORD)
  const v = BigInt(`0x${verifierHex}`)
  const A = powG(BigInt(`0x${randomBytes(32).toString('hex')}`))
  const started = process.hrtime.bigint()
  for (let index = 0; index < iterations; index++) {
    const b = BigInt(`0x${randomBytes(32).toString('hex')}`)
    const u = BigInt(`0x${randomBytes(32).toString('hex')}`)
    powG(b)
    modPowN((A * modPowN(v, u)) % N, b)
  }
  return Number(process.hrtime.bigint() - started) / 1e6 / iterations
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0
}

async function main(): Promise<number> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'techlab-bench-srp-'))
  const server = await startServer(undefined, 'app', { type: 'start', server: 'app', dataDir })
  try {
    const identity = loadConfig(appEnvironment(dataDir)).identity
    const pool: Pool = {
      url: server.url,
      clientId: identity.clientId,
      poolName: identity.userPoolId.split('_')[1] as string,
    }
    const usernames = await registerUsers(pool, dataDir, connections)
    for (const username of usernames) await signIn(pool, username)

    const latencies: number[] = []
    const cpuBefore = await server.cpuMicros()
    const deadline = performance.now() + durationS * 1000
    await Promise.all(
      usernames.map(async (username) => {
        while (performance.now() < deadline) {
          const started = performance.now()
          await signIn(pool, username)
          latencies.push(performance.now() - started)
        }
      }),
    )
    const serverCpuMs = ((await server.cpuMicros()) - cpuBefore) / 1000 / latencies.length
    const modexpMs = exponentiationsOnly(200)

    const rows = [
      [
        'full SRP sign-ins (HTTP, 2 requests each)',
        (latencies.length / durationS).toFixed(0),
        percentile(latencies, 0.99).toFixed(1),
        serverCpuMs.toFixed(2),
      ],
      [
        'modular exponentiations alone (3 per sign-in)',
        (1000 / modexpMs).toFixed(0),
        '-',
        modexpMs.toFixed(2),
      ],
    ]
    console.log(
      `\nSRP: ${connections} concurrent sign-in loops for ${durationS} s; Node ${process.version}\n`,
    )
    console.log('| row | per second | p99 ms | server CPU ms per sign-in |')
    console.log('|---|---|---|---|')
    for (const row of rows) console.log(`| ${row.join(' | ')} |`)
    console.log(
      `\nratio: sign-ins/s ÷ exponentiation-only ceiling = ${((latencies.length / durationS) * (modexpMs / 1000)).toFixed(2)}; ` +
        `exponentiations are ${((modexpMs / serverCpuMs) * 100).toFixed(0)} % of the server's CPU per sign-in.`,
    )
    return 0
  } finally {
    await server.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

runBench(main)
