/** WORKFLOW_HTTP_ALLOW: which hosts match, which resolved addresses may be connected to. */
import { compileAllowList } from '../../../src/services/workflow/http/allow-list';
import { urlEncode } from '../../../src/services/workflow/http/invoke';

describe('HTTP task allow-list', () => {
  it('allows nothing by default', () => {
    const a = compileAllowList('');
    expect(a.hostAllowed('api.example.com')).toBe(false);
    expect(a.hostAllowed('93.184.216.34')).toBe(false);
  });

  it('matches exact hosts, *.domain (subdomains only) and *', () => {
    const a = compileAllowList('api.example.com, *.example.org');
    expect(a.hostAllowed('API.example.com')).toBe(true);
    expect(a.hostAllowed('api.example.com.')).toBe(true);
    expect(a.hostAllowed('x.api.example.com')).toBe(false);
    expect(a.hostAllowed('a.b.example.org')).toBe(true);
    expect(a.hostAllowed('example.org')).toBe(false);
    expect(a.hostAllowed('evilexample.org')).toBe(false);
    expect(compileAllowList('*').hostAllowed('anything.test')).toBe(true);
  });

  it('refuses special addresses unless an address entry lists them, also behind * and as IPv4-mapped IPv6', () => {
    const a = compileAllowList('*');
    for (const ip of ['127.0.0.1', '10.0.0.5', '172.16.3.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd12::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::7f00:1', '::127.0.0.1', '::']) {
      expect([ip, a.addressProblem(ip)]).toEqual([ip, expect.stringMatching(/not listed/)]);
    }
    expect(a.addressProblem('93.184.216.34')).toBeNull();
    expect(a.addressProblem('2606:4700::1111')).toBeNull();
    const b = compileAllowList('*, 10.1.0.0/16, ::1');
    expect(b.addressProblem('10.1.200.7')).toBeNull();
    expect(b.addressProblem('10.2.0.1')).not.toBeNull();
    expect(b.addressProblem('::1')).toBeNull();
    expect(b.hostAllowed('10.1.2.3')).toBe(true);
  });

  it('an IP literal host needs an address entry (or *)', () => {
    const a = compileAllowList('127.0.0.1');
    expect(a.hostAllowed('127.0.0.1')).toBe(true);
    expect(a.hostAllowed('127.0.0.2')).toBe(false);
    expect(a.addressProblem('127.0.0.1')).toBeNull();
  });

  it('allows plain http:// only to hosts an http:// entry names (the entry also allows the host)', () => {
    const a = compileAllowList('api.example.com, http://local.test, http://*.internal.test, http://127.0.0.1, http://10.9.0.0/16');
    expect(a.plainHttpAllowed('api.example.com')).toBe(false);
    expect(a.hostAllowed('api.example.com')).toBe(true);
    expect(a.plainHttpAllowed('LOCAL.test')).toBe(true);
    expect(a.hostAllowed('local.test')).toBe(true);
    expect(a.plainHttpAllowed('a.internal.test')).toBe(true);
    expect(a.plainHttpAllowed('internal.test')).toBe(false);
    expect(a.plainHttpAllowed('127.0.0.1')).toBe(true);
    expect(a.addressProblem('127.0.0.1')).toBeNull();
    expect(a.plainHttpAllowed('10.9.3.4')).toBe(true);
    expect(a.plainHttpAllowed('10.8.3.4')).toBe(false);
    expect(compileAllowList('*').plainHttpAllowed('x.test')).toBe(false);
    expect(compileAllowList('http://*').plainHttpAllowed('x.test')).toBe(true);
  });

  it('rejects malformed entries', () => {
    expect(() => compileAllowList('https://x.com')).toThrow(/only http:\/\/ may prefix an entry/);
    expect(() => compileAllowList('ftp://x.com')).toThrow(/only http:\/\//);
    expect(() => compileAllowList('http://')).toThrow(/WORKFLOW_HTTP_ALLOW/);
    expect(() => compileAllowList('http://x.com/path')).toThrow(/not an address range|not a host name/);
    expect(() => compileAllowList('10.0.0.0/40')).toThrow(/prefix/);
    expect(() => compileAllowList('foo/8')).toThrow(/not an address range/);
    expect(() => compileAllowList('-bad.com')).toThrow(/not a host name/);
  });
});

describe('URL_ENCODED request bodies', () => {
  const body = { a: ['x', 'y'], n: null, o: { p: [1, 2] } };
  it.each([
    ['INDICES', 'a[0]=x&a[1]=y&n=&o[p][0]=1&o[p][1]=2'],
    ['REPEAT', 'a=x&a=y&n=&o[p]=1&o[p]=2'],
    ['COMMAS', 'a=x,y&n=&o[p]=1,2'],
    ['BRACKETS', 'a[]=x&a[]=y&n=&o[p][]=1&o[p][]=2'],
  ] as const)('%s', (format, decoded) => {
    expect(decodeURIComponent(urlEncode(body, format))).toBe(decoded);
  });
});
