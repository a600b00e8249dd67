/** The part of autocannon's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
  }

  /** One request of a sequence each connection cycles through; `setupRequest` may rewrite it. */
  interface RequestSpec {
    method?: 'GET' | 'POST';
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    // biome-ignore lint/suspicious/noExplicitAny: each connection's context is the caller's own shape
    setupRequest?: (request: Record<string, unknown>, context: any) => Record<string, unknown>;
  }

  interface Options {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    timeout?: number;
    requests?: RequestSpec[];
  }

  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    /** Answers by status class, e.g. the 304s of a revalidation. */
    '3xx'?: number;
    duration: number;
  }

  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
