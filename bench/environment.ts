/** The environment the benchmark's app servers run with (see server/config.ts). */
export function appEnvironment(
  dataDir: string,
  pageCacheMaxEntries?: number,
): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SEED_DEMO_CONTENT: 'auto',
    ...(pageCacheMaxEntries === undefined
      ? {}
      : { PAGE_CACHE_MAX_ENTRIES: String(pageCacheMaxEntries) }),
  }
}
