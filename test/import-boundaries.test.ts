/**
 * The import boundaries ESLint keeps (eslint.config.mjs, scripts/eslint/boundaries.mjs): the project's
 * own configuration lints small sources placed where the files would stand, and fails on each forbidden
 * import while passing the allowed ones. ESLint runs in a child process (its configuration is an ES
 * module, which the test runner's module system does not load).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..');

interface Case {
  file: string;
  code: string;
}

/** The rule ids each source breaks, by the project's ESLint configuration. */
function lint(cases: Case[]): string[][] {
  const script = `
    import { ESLint } from 'eslint';
    const cases = JSON.parse(process.argv[1]);
    const eslint = new ESLint({ cwd: process.cwd() });
    const out = [];
    for (const c of cases) {
      const [result] = await eslint.lintText(c.code, { filePath: c.file });
      out.push(result.messages.map((m) => m.ruleId ?? m.message));
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(cases)], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

const CROSSING = 'boundaries/no-crossing';
const ROUTES = '@typescript-eslint/no-restricted-imports';

describe('import boundaries', () => {
  const cases: (Case & { breaks: string[] })[] = [
    // Services never import each other, nor the process modules that assemble them.
    {
      file: 'services/calendar/events/probe.ts',
      code: "import { bindPosts } from '../../content/posts/handlers';\nexport const x = bindPosts;\n",
      breaks: [CROSSING],
    },
    { file: 'services/gateway/probe.ts', code: "export { createCalendarService } from '../calendar';\n", breaks: [CROSSING] },
    { file: 'services/content/probe.ts', code: "import type { HostOptions } from '../host';\nexport type X = HostOptions;\n", breaks: [CROSSING] },
    { file: 'services/oembed/probe.ts', code: "export const load = () => import('../aggregator/index');\n", breaks: [CROSSING] },
    // Libs never import services.
    {
      file: 'libs/rest/probe.ts',
      code: "import { createGatewayApp } from '../../services/gateway/http';\nexport const x = createGatewayApp;\n",
      breaks: [CROSSING],
    },
    // Route declarations are not a utility module: a validator is refused, declarations and types are not.
    {
      file: 'services/calendar/probe.ts',
      code: "import { INVALID, statusList } from '../../libs/routes/vendor-events/args';\nexport const x = [INVALID, statusList];\n",
      breaks: [ROUTES],
    },
    // The same through the `#libs/` alias.
    {
      file: 'services/calendar/probe.ts',
      code: "import { statusList } from '#libs/routes/vendor-events/args';\nexport const x = statusList;\n",
      breaks: [ROUTES],
    },
    // Allowed: a service's own files, libs, and the process modules assembling services.
    {
      file: 'services/calendar/events/probe.ts',
      code: "import { presentEvent } from './present';\nimport { CalendarCache } from '../read-cache';\nimport { readBody } from '#libs/http/read-body';\nimport { sanitizeTitle } from '../../../libs/posts/slug';\nexport const x = [presentEvent, CalendarCache, readBody, sanitizeTitle];\n",
      breaks: [],
    },
    {
      file: 'services/calendar/probe.ts',
      code: "import { VENDOR_EVENT_ENDPOINTS } from '../../libs/routes/vendor-events';\nimport { eventSchema } from '../../libs/routes/vendor-events/schemas';\nimport type { Check } from '../../libs/routes/ec/params';\nexport const x = [VENDOR_EVENT_ENDPOINTS, eventSchema];\nexport type C = Check;\n",
      breaks: [],
    },
    {
      file: 'services/probe.ts',
      code: "import { createCalendarService } from './calendar';\nimport { createGatewayApp } from './gateway/http';\nexport const x = [createCalendarService, createGatewayApp];\n",
      breaks: [],
    },
  ];

  it('fails on each forbidden import and passes the allowed ones', () => {
    const found = lint(cases);
    expect(found).toEqual(cases.map((c) => c.breaks));
  });
});
