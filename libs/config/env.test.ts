/**
 * Start-up refuses the secret values the documentation shows as examples, whichever process reads
 * them, and names the variable; the credentials the test harness and the conformance run use pass.
 */
import { ADMIN } from '../../test/support/app';
import { EXAMPLE_SECRETS, loadConfig, requireForRole } from './env';

const OWN_SECRET = 'an-own-service-secret-0123456789abcdef';

function problemsOf(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('example secrets are refused at start-up', () => {
  const cases = (Object.keys(EXAMPLE_SECRETS) as Array<keyof typeof EXAMPLE_SECRETS>).flatMap((name) =>
    EXAMPLE_SECRETS[name].map((value): [string, string] => [name, value]),
  );

  test.each(cases)('%s=%p', (name, value) => {
    const message = problemsOf({ [name]: value });
    expect(message).toContain(`${name} is the example value shown in the documentation, which anyone can read: set one of your own`);
  });

  test('an example application password is refused however it is spaced or cased', () => {
    for (const value of ['exam ple0 exam ple0 exam ple0', 'EXAMPLE0example0EXAMPLE0', 'Exam Ple0 Exam Ple0 Exam Ple0', 'repl acem eRep lace meRp lcme']) {
      expect([value, problemsOf({ ADMIN_APP_PASSWORD: value })]).toEqual([value, expect.stringContaining('ADMIN_APP_PASSWORD is the example value')]);
    }
  });

  test('every refused variable is listed in one message, with the other problems', () => {
    const message = problemsOf({
      SERVICE_SECRET: EXAMPLE_SECRETS.SERVICE_SECRET[0],
      ADMIN_PASSWORD: EXAMPLE_SECRETS.ADMIN_PASSWORD[0],
      ADMIN_APP_PASSWORD: EXAMPLE_SECRETS.ADMIN_APP_PASSWORD[0],
      PORT: 'eighty',
    });
    for (const name of ['SERVICE_SECRET', 'ADMIN_PASSWORD', 'ADMIN_APP_PASSWORD', 'PORT']) expect(message).toContain(`  - ${name} `);
  });

  test('a value that only resembles an example passes', () => {
    expect(problemsOf({ ADMIN_APP_PASSWORD: 'example0example0example1', ADMIN_PASSWORD: 'replace-me-with-a-long-password!', SERVICE_SECRET: OWN_SECRET })).toBe(
      '',
    );
  });

  test('the test harness credentials and those of the conformance instructions start', () => {
    const harness = loadConfig({ ADMIN_USER: ADMIN.login, ADMIN_PASSWORD: ADMIN.password, ADMIN_APP_PASSWORD: ADMIN.appPassword, SERVICE_SECRET: OWN_SECRET });
    expect(() => requireForRole(harness, 'all')).not.toThrow();
    const conformance = loadConfig({ ADMIN_USER: 'admin', ADMIN_PASSWORD: 'some-long-password', ADMIN_APP_PASSWORD: 'abcd efgh ijkl mnop qrst uvwx' });
    expect(conformance.ADMIN_APP_PASSWORD).toBe('abcdefghijklmnopqrstuvwx');
  });
});
