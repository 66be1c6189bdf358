import { ConfigError, DEFAULT_SQLITE_PATH, describeConfig, loadConfig, parseDatabaseUrl } from '../../src/config';

describe('config from the environment', () => {
  it('has working defaults: port 4000, SQLite file data/gateway.sqlite, info logs, localhost public URL', () => {
    const c = loadConfig({});
    expect(c.port).toBe(4000);
    expect(c.host).toBe('0.0.0.0');
    expect(c.database).toEqual({ type: 'sqlite', path: DEFAULT_SQLITE_PATH });
    expect(DEFAULT_SQLITE_PATH).toBe('data/gateway.sqlite');
    expect(c.logLevel).toBe('info');
    expect(c.publicUrl).toBe('http://localhost:4000');
    expect(c.redisUrl).toBeUndefined();
    expect(c.seedDemo).toBe(true);
  });

  it('reads PORT, HOST, LOG_LEVEL, REDIS_URL and PUBLIC_URL', () => {
    const c = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'DEBUG',
      REDIS_URL: 'redis://127.0.0.1:6379/2',
      PUBLIC_URL: 'https://api.example.com/',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      logLevel: 'debug',
      redisUrl: 'redis://127.0.0.1:6379/2',
      publicUrl: 'https://api.example.com',
    });
  });

  it('derives the public URL from HOST and PORT when PUBLIC_URL is unset', () => {
    expect(loadConfig({ PORT: '5000', HOST: '10.1.2.3' }).publicUrl).toBe('http://10.1.2.3:5000');
  });

  it.each([
    [undefined, { type: 'sqlite', path: 'data/gateway.sqlite' }],
    ['', { type: 'sqlite', path: 'data/gateway.sqlite' }],
    ['sqlite:/tmp/x.db', { type: 'sqlite', path: '/tmp/x.db' }],
    ['sqlite:relative/y.db', { type: 'sqlite', path: 'relative/y.db' }],
    ['sqlite::memory:', { type: 'sqlite', path: ':memory:' }],
    ['sqlite:///abs/z.db', { type: 'sqlite', path: '/abs/z.db' }],
    ['postgres://u:p@db:5432/app', { type: 'postgres', url: 'postgres://u:p@db:5432/app' }],
    ['postgresql://db/app', { type: 'postgres', url: 'postgresql://db/app' }],
  ])('DATABASE_URL %p -> %p', (url, expected) => {
    expect(parseDatabaseUrl(url)).toEqual(expected);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer/],
    [{ PORT: '70000' }, /PORT must be an integer/],
    [{ PORT: '-1' }, /PORT must be an integer/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ DATABASE_URL: 'mysql://x/y' }, /DATABASE_URL must start with sqlite: or postgres:\/\//],
    [{ DATABASE_URL: 'sqlite:' }, /needs a path/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL must start with redis:\/\//],
    [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL must be an absolute http\(s\) URL/],
    [{ PUBLIC_URL: 'ftp://x' }, /PUBLIC_URL must be an absolute http\(s\) URL/],
    [{ SEED_DEMO: 'maybe' }, /SEED_DEMO must be true or false/],
  ])('rejects %p with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never shows credentials when describing the config', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://user:hunter2@db/app', REDIS_URL: 'redis://:s3cret@cache:6379' });
    const text = JSON.stringify(describeConfig(c));
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('s3cret');
    expect(text).toContain('db/app');
  });

  it('does not echo a REDIS_URL password in its error message', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://:topsecret@x' })).toThrow(/REDIS_URL/);
    try {
      loadConfig({ REDIS_URL: 'http://:topsecret@x' });
    } catch (e) {
      expect((e as Error).message).not.toContain('topsecret');
    }
  });

  it('has timeouts and a connection cap by default that do not cut slow legitimate clients', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ requestTimeoutMs: 60_000, headersTimeoutMs: 15_000, keepAliveTimeoutMs: 72_000, maxConnections: 1024 });
    expect(c.metricsToken).toBeUndefined();
  });

  it('reads REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, MAX_CONNECTIONS and METRICS_TOKEN', () => {
    const c = loadConfig({
      REQUEST_TIMEOUT_MS: '30000',
      HEADERS_TIMEOUT_MS: '5000',
      KEEP_ALIVE_TIMEOUT_MS: '10000',
      MAX_CONNECTIONS: '200',
      METRICS_TOKEN: ' scrape-0123456789abcdef ',
    });
    expect(c).toMatchObject({ requestTimeoutMs: 30_000, headersTimeoutMs: 5000, keepAliveTimeoutMs: 10_000, maxConnections: 200, metricsToken: 'scrape-0123456789abcdef' });
    // 0 turns the request timeout and the connection cap off; the headers timeout then keeps its default.
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '0', MAX_CONNECTIONS: '0' })).toMatchObject({ requestTimeoutMs: 0, headersTimeoutMs: 15_000, maxConnections: 0 });
    // A short request timeout pulls the default headers timeout down with it.
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '2000' }).headersTimeoutMs).toBe(2000);
  });

  it.each([
    [{ REQUEST_TIMEOUT_MS: 'soon' }, /REQUEST_TIMEOUT_MS must be a non-negative integer/],
    [{ REQUEST_TIMEOUT_MS: '-5' }, /REQUEST_TIMEOUT_MS must be a non-negative integer/],
    [{ HEADERS_TIMEOUT_MS: '1.5' }, /HEADERS_TIMEOUT_MS must be a non-negative integer/],
    [{ HEADERS_TIMEOUT_MS: '0' }, /HEADERS_TIMEOUT_MS must be a positive integer/],
    [{ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '5000' }, /HEADERS_TIMEOUT_MS \(5000\) must not be above REQUEST_TIMEOUT_MS \(1000\)/],
    [{ KEEP_ALIVE_TIMEOUT_MS: '0' }, /KEEP_ALIVE_TIMEOUT_MS must be a positive integer/],
    [{ KEEP_ALIVE_TIMEOUT_MS: 'x' }, /KEEP_ALIVE_TIMEOUT_MS must be a non-negative integer/],
    [{ MAX_CONNECTIONS: 'many' }, /MAX_CONNECTIONS must be a non-negative integer/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN must be at least 16 printable characters/],
    [{ METRICS_TOKEN: 'has a space in the middle' }, /METRICS_TOKEN must be at least 16 printable characters/],
  ])('rejects %p with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echoes METRICS_TOKEN in an error or in the described config', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'sekrit' })).toThrow(ConfigError);
    try {
      loadConfig({ METRICS_TOKEN: 'sekrit' });
    } catch (e) {
      expect((e as Error).message).not.toContain('sekrit');
    }
    const text = JSON.stringify(describeConfig(loadConfig({ METRICS_TOKEN: 'scrape-0123456789abcdef' })));
    expect(text).not.toContain('scrape-0123456789abcdef');
    expect(text).toContain('"metricsProtected":true');
  });

  it('does not seed the demo in production unless SEED_DEMO asks for it', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('DETECTOR_THREADS: default available parallelism - 1 (at least 1), 1 to 256 accepted', () => {
    const os = require('node:os') as typeof import('node:os');
    expect(loadConfig({}).detectorThreads).toBe(Math.max(1, os.availableParallelism() - 1));
    expect(loadConfig({ DETECTOR_THREADS: '3' }).detectorThreads).toBe(3);
    for (const bad of ['0', '257', 'many', '-1']) expect(() => loadConfig({ DETECTOR_THREADS: bad })).toThrow(/DETECTOR_THREADS/);
  });
});
