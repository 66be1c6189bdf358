/**
 * The shared config/credentials files: the INI dialect (sections, `[profile x]`, comments, nested blocks),
 * where the files are found (home directory, AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE), the profile in force,
 * `use_vendor_shared_config_files: false`, settings lookups and `app_id` from env/ini. Real temporary home
 * directories with real files; env objects are passed in, process.env is never changed.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createResolveContext,
  envOrSharedConfig,
  parseIni,
  resolveAppId,
  sharedConfigValue,
} from '../../../packages/workflow-client/src/config-files';
import { InvalidArgumentError } from '../../../packages/workflow-client/src/errors';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'wc-cfg-'));
  mkdirSync(path.join(home, '.aws'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const writeConfig = (text: string, name = 'config'): string => {
  const file = path.join(home, '.aws', name);
  writeFileSync(file, text);
  return file;
};

describe('parseIni', () => {
  it('reads sections, keys, both comment styles (line and inline after whitespace) and trims', () => {
    const data = parseIni(
      [
        '# a comment',
        '; another',
        '[default]',
        'region = eu-west-1   # inline comment',
        'app = a#b',
        '  [profile   dev]  ',
        'region=us-east-2 ; gone',
        'retry_mode = adaptive',
        'not a key line',
        '=novalue',
      ].join('\r\n'),
    );
    expect(data.default).toEqual({ region: 'eu-west-1', app: 'a#b' });
    expect(data['profile dev']).toEqual({ region: 'us-east-2', retry_mode: 'adaptive' });
  });

  it('keeps nested blocks as parent.key and never lets their keys leak into the profile', () => {
    const data = parseIni(['[profile x]', 's3 =', '  max_concurrent_requests = 20', '  region = nested-region', 'region = top', 'services = ', '  states =', ''].join('\n'));
    expect(data['profile x'].region).toBe('top');
    expect(data['profile x']['s3.max_concurrent_requests']).toBe('20');
    expect(data['profile x']['s3.region']).toBe('nested-region');
  });

  it('a profile named __proto__ does not touch Object.prototype', () => {
    const data = parseIni('[__proto__]\npolluted = yes\n[constructor]\nx = 1\n');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(data.__proto__).toEqual({ polluted: 'yes' });
  });

  it('ignores keys under a malformed section header instead of filing them under the previous profile', () => {
    const data = parseIni('[default]\nregion = a\n[profile broken\nregion = b\n');
    expect(data.default.region).toBe('a');
  });
});

describe('sharedConfigValue', () => {
  it('reads [default] from <home>/.aws/config by default', () => {
    writeConfig('[default]\nregion = eu-central-1\nmax_attempts = 7\n');
    const ctx = createResolveContext({}, {}, home);
    expect(ctx.profile).toBe('default');
    expect(sharedConfigValue(ctx, 'region')).toBe('eu-central-1');
    expect(sharedConfigValue(ctx, 'max_attempts')).toBe('7');
    expect(sharedConfigValue(ctx, 'retry_mode')).toBeUndefined();
  });

  it('accepts [profile default] for the default profile', () => {
    writeConfig('[profile default]\nregion = ap-south-1\n');
    expect(sharedConfigValue(createResolveContext({}, {}, home), 'region')).toBe('ap-south-1');
  });

  it('uses AWS_PROFILE, and the profile option over it; [name] without "profile " is not a config profile', () => {
    writeConfig('[profile env]\nregion = from-env\n[profile opt]\nregion = from-option\n[opt]\nregion = wrong\n');
    expect(sharedConfigValue(createResolveContext({}, { AWS_PROFILE: 'env' }, home), 'region')).toBe('from-env');
    const ctx = createResolveContext({ profile: 'opt' }, { AWS_PROFILE: 'env' }, home);
    expect(ctx.explicitProfile).toBe(true);
    expect(sharedConfigValue(ctx, 'region')).toBe('from-option');
    expect(sharedConfigValue(createResolveContext({ profile: 'missing' }, {}, home), 'region')).toBeUndefined();
  });

  it('AWS_CONFIG_FILE points elsewhere', () => {
    writeConfig('[default]\nregion = home-file\n');
    const other = path.join(home, 'elsewhere.ini');
    writeFileSync(other, '[default]\nregion = other-file\n');
    expect(sharedConfigValue(createResolveContext({}, { AWS_CONFIG_FILE: other }, home), 'region')).toBe('other-file');
  });

  it('reads nothing when use_vendor_shared_config_files is false, unless a profile option is given', () => {
    writeConfig('[default]\nregion = r1\n[profile p]\nregion = r2\n');
    expect(sharedConfigValue(createResolveContext({ use_vendor_shared_config_files: false }, {}, home), 'region')).toBeUndefined();
    expect(sharedConfigValue(createResolveContext({ use_vendor_shared_config_files: false, profile: 'p' }, {}, home), 'region')).toBe('r2');
  });

  it('a missing file or home gives undefined, not an error', () => {
    expect(sharedConfigValue(createResolveContext({}, {}, path.join(home, 'nope')), 'region')).toBeUndefined();
  });

  it('sees a changed file (no stale cache)', () => {
    const file = writeConfig('[default]\nregion = first\n');
    const ctx = createResolveContext({}, {}, home);
    expect(sharedConfigValue(ctx, 'region')).toBe('first');
    writeFileSync(file, '[default]\nregion = second-value\n');
    expect(sharedConfigValue(ctx, 'region')).toBe('second-value');
  });

  it('envOrSharedConfig: the env variable wins, else the file', () => {
    writeConfig('[default]\nretry_mode = standard\n');
    expect(envOrSharedConfig(createResolveContext({}, { AWS_RETRY_MODE: 'adaptive' }, home), 'AWS_RETRY_MODE', 'retry_mode')).toBe('adaptive');
    expect(envOrSharedConfig(createResolveContext({}, {}, home), 'AWS_RETRY_MODE', 'retry_mode')).toBe('standard');
  });
});

describe('resolveAppId', () => {
  it('option, else AWS_SDK_UA_APP_ID, else sdk_ua_app_id; none → undefined', () => {
    writeConfig('[default]\nsdk_ua_app_id = from-ini\n');
    expect(resolveAppId('from-option', createResolveContext({}, { AWS_SDK_UA_APP_ID: 'from-env' }, home))).toBe('from-option');
    expect(resolveAppId(undefined, createResolveContext({}, { AWS_SDK_UA_APP_ID: 'from-env' }, home))).toBe('from-env');
    expect(resolveAppId(undefined, createResolveContext({}, {}, home))).toBe('from-ini');
    expect(resolveAppId(undefined, createResolveContext({ use_vendor_shared_config_files: false }, {}, home))).toBeUndefined();
  });

  it('more than 50 characters: kept, with a process warning', () => {
    // The warning is seen here, not printed into the suite's output.
    const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      expect(resolveAppId('x'.repeat(50), createResolveContext({}, {}, home))).toBe('x'.repeat(50));
      expect(spy).not.toHaveBeenCalled();
      expect(resolveAppId('y'.repeat(51), createResolveContext({}, {}, home))).toBe('y'.repeat(51));
      expect(spy).toHaveBeenCalledTimes(1);
      expect(String(spy.mock.calls[0][0])).toContain('exceeds the maximum length of 50');
    } finally {
      spy.mockRestore();
    }
  });

  it('a non-string is an invalid-argument error naming the option and the type', () => {
    expect(() => resolveAppId(42, createResolveContext({}, {}, home))).toThrow(InvalidArgumentError);
    expect(() => resolveAppId(42, createResolveContext({}, {}, home))).toThrow('Invalid configuration value provided for "app_id". Expected string, but got int(42)');
  });
});
