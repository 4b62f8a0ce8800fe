// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  export type Options = {
    url: string
    connections?: number
    duration?: number
    pipelining?: number
    headers?: Record<string, string>
  }

  export type Histogram = {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    p50: number
    p90: number
    p99: number
    total: number
  }

  export type Result = {
    url: string
    duration: number
    requests: Histogram
    latency: Histogram
    throughput: Histogram
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
    statusCodeStats: Record<string, { count: number }>
  }

  export default function autocannon(options: Options): Promise<Result>
}
