/**
 * The part of autocannon's programmatic API the bench uses (autocannon 9 ships no type declarations).
 */
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      /** seconds */
      duration?: number;
      amount?: number;
      /** seconds */
      timeout?: number;
      pipelining?: number;
      title?: string;
      /** Responses whose body differs are counted in `mismatches`. */
      expectBody?: string;
    }
    /** hdr-histogram-percentiles-obj */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      sent?: number;
      p0_001?: number;
      p2_5: number;
      p50: number;
      p75: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
      p99_99: number;
      p99_999: number;
    }
    interface Result {
      title?: string;
      url: string;
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      /** seconds */
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      start: Date;
      finish: Date;
      connections: number;
      pipelining: number;
      statusCodeStats: Record<string, { count: number }>;
      [key: string]: unknown;
    }
    interface Instance {
      stop(): void;
    }
  }
  function autocannon(opts: autocannon.Options, cb: (err: Error | null, result: autocannon.Result) => void): autocannon.Instance;
  export = autocannon;
}
