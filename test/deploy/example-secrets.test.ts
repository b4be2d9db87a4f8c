/**
 * The secrets the documentation shows as examples are exactly ones the service refuses at start-up
 * (EXAMPLE_SECRETS in libs/config/env.ts): a user who copies one gets a clear error, not a public
 * credential. An example added to the documentation without adding it there fails here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { EXAMPLE_SECRETS, loadConfig } from '#libs/config/env';
import { REPO_ROOT } from '../../scripts/deploy/tools';

const SECRET_NAMES = Object.keys(EXAMPLE_SECRETS) as Array<keyof typeof EXAMPLE_SECRETS>;
const DOCS = ['README.md', 'k8s/README.md', 'charts/events-calendar/README.md'];

function refusal(name: string, value: string): string {
  try {
    loadConfig({ [name]: value });
    return `${name}=${value} is accepted`;
  } catch (e) {
    return (e as Error).message.includes(`${name} is the example value shown in the documentation`) ? '' : (e as Error).message;
  }
}

describe('example secrets in the documentation are refused at start-up', () => {
  test('application passwords in the curl examples of the READMEs', () => {
    const found: Array<[string, string]> = [];
    for (const doc of DOCS) {
      const text = fs.readFileSync(path.join(REPO_ROOT, doc), 'utf8');
      for (const m of text.matchAll(/curl -u ["']([^:"']+):([^"']+)["']/g)) {
        // Placeholders (<application password>) and values read from elsewhere ($(...)) are not examples.
        if (/[<$]/.test(m[2])) continue;
        found.push([doc, m[2]]);
      }
    }
    expect(found.length).toBeGreaterThan(0);
    for (const [doc, value] of found) expect([doc, value, refusal('ADMIN_APP_PASSWORD', value)]).toEqual([doc, value, '']);
  });

  test('every secret of k8s/overlays/example/secrets.env.example', () => {
    const text = fs.readFileSync(path.join(REPO_ROOT, 'k8s', 'overlays', 'example', 'secrets.env.example'), 'utf8');
    const values = new Map(
      text
        .split('\n')
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as [string, string]),
    );
    for (const name of SECRET_NAMES) {
      expect(values.has(name)).toBe(true);
      expect([name, refusal(name, values.get(name)!)]).toEqual([name, '']);
    }
  });
});
