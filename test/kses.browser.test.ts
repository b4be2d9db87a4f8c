/**
 * The HTML filter's output rendered in a real browser (Debian's Chromium through playwright-core): every
 * vector of test/fixtures/xss-vectors.ts, filtered by the rules of each kind of writer without
 * unfiltered_html (post content of authors and contributors, titles, comments, term descriptions),
 * directly and as the service stores and renders an author's post (raw and rendered title, content and
 * excerpt). In each page no script runs (alert and its kin are recorded, errors caught), no element
 * carries an event handler attribute, no URL a browser would follow is `javascript:`, `vbscript:` or
 * `data:`, and no script, frame, object or embed is built. The unfiltered vectors are rendered first, so
 * the checks are seen to find what they look for.
 */
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { DESCRIPTION_TAGS, kses, POST_TAGS, TITLE_TAGS, type AllowedTags } from '#libs/posts/kses';
import { startTestApp, type TestApp } from './support/app';
import { ensureDebianPackage } from './support/debian';
import { createRoleUsers, type RoleUsers } from './support/roles';
import { VECTORS } from './fixtures/xss-vectors';

// Code run inside the page (page.evaluate, init scripts) sees the browser's globals; the project compiles without the DOM library.
declare const window: any;
declare const document: any;
declare const location: any;

const CHROMIUM = '/usr/bin/chromium';
const ORIGIN = 'http://kses.test';

let browser: Browser;
let context: BrowserContext;
let app: TestApp;
let users: RoleUsers;
const pages = new Map<string, string>();

interface Findings {
  ran: string[];
  handlers: string[];
  urls: string[];
  elements: string[];
}

/** Renders the parts, each in its own section, and reports what ran and what is unsafe in the built page. */
async function render(name: string, parts: Array<[string, string]>): Promise<Findings> {
  const path = `/${encodeURIComponent(name)}`;
  pages.set(
    path,
    `<!doctype html><html><head><title>${name}</title></head><body>${parts.map(([id, html]) => `<section data-part="${id}">${html}</section>`).join('\n')}</body></html>`,
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  try {
    await page.goto(ORIGIN + path, { waitUntil: 'load' });
    // Hover, focus and click what could react, then let timers and media events run.
    const found: Findings = await page.evaluate(async () => {
      const urlAttrs = ['href', 'src', 'action', 'formaction', 'data', 'poster', 'background', 'cite', 'longdesc', 'usemap', 'xlink:href', 'codebase'];
      const out = { ran: [] as string[], handlers: [] as string[], urls: [] as string[], elements: [] as string[] };
      for (const el of Array.from(document.body.querySelectorAll('*')) as any[]) {
        const where = el.closest('section')?.dataset.part ?? '?';
        const tag = el.localName;
        // An object without data loads nothing (the filter keeps a bare one, as the reference does).
        const inertObject = tag === 'object' && (!el.hasAttribute('data') || el.type === 'application/pdf');
        if (['script', 'iframe', 'frame', 'object', 'embed', 'base', 'meta', 'link', 'svg', 'math', 'form', 'style'].includes(tag) && !inertObject)
          out.elements.push(`${where}: <${tag}>`);
        for (const attr of el.getAttributeNames()) {
          if (attr.toLowerCase().startsWith('on')) out.handlers.push(`${where}: <${tag} ${attr}>`);
          if (!urlAttrs.includes(attr.toLowerCase())) continue;
          let protocol: string;
          try {
            protocol = new URL(el.getAttribute(attr), location.href).protocol;
          } catch {
            continue;
          }
          if (['javascript:', 'vbscript:', 'data:'].includes(protocol)) out.urls.push(`${where}: <${tag} ${attr}="${el.getAttribute(attr)}">`);
        }
        for (const type of ['mouseover', 'mouseenter', 'focus', 'focusin', 'pointerdown', 'animationstart'])
          el.dispatchEvent(new window.Event(type, { bubbles: true }));
      }
      await new Promise((r) => setTimeout(r, 50));
      out.ran = window.__ran;
      return out;
    });
    found.ran.push(...errors);
    return found;
  } finally {
    await page.close();
  }
}

const FILTERS: Array<[string, AllowedTags]> = [
  ['post content (authors, contributors)', POST_TAGS],
  ['titles', TITLE_TAGS],
  ['comments', TITLE_TAGS],
  ['term descriptions', DESCRIPTION_TAGS],
];

// A missing Chromium is installed first where the run may (apt-get as root), which takes minutes.
beforeAll(() => void ensureDebianPackage(CHROMIUM, 'chromium', 'the HTML filter tests in a browser (Chromium driven by playwright-core)'), 15 * 60_000);

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  context = await browser.newContext({ javaScriptEnabled: true });
  // Every script run through a dialog is recorded; nothing leaves the machine: the pages are served here, every other request fails.
  await context.addInitScript(() => {
    window.__ran = [];
    for (const name of ['alert', 'confirm', 'prompt', 'print']) window[name] = (m: unknown) => window.__ran.push(`${name}(${String(m)})`);
  });
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    const html = url.origin === ORIGIN ? pages.get(url.pathname) : undefined;
    if (html !== undefined) await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
    else await route.abort();
  });
  app = await startTestApp();
  users = await createRoleUsers(app, 'kses');
}, 60000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.close();
});

describe('filtered markup in Chromium', () => {
  it('the unfiltered vectors do run scripts and carry handlers and javascript: URLs (the checks find them)', async () => {
    const found = await render(
      'unfiltered',
      VECTORS.map((v, i) => [`${i} ${v.name}`, v.html]),
    );
    expect(found.ran.length).toBeGreaterThan(0);
    expect(found.handlers.length).toBeGreaterThan(0);
    expect(found.urls.length).toBeGreaterThan(0);
    expect(found.elements.length).toBeGreaterThan(0);
  }, 60000);

  it.each(FILTERS)(
    '%s: no script runs, no handler, no unsafe URL, no script element',
    async (rules, allowed) => {
      const found = await render(
        rules,
        VECTORS.map((v, i) => [`${i} ${v.name}`, kses(v.html, allowed)]),
      );
      expect(found).toEqual({ ran: [], handlers: [], urls: [], elements: [] });
    },
    60000,
  );

  it("an author's posts as the service stores and renders them: title, content and excerpt, raw and rendered", async () => {
    const parts: Array<[string, string]> = [];
    for (const [i, v] of VECTORS.entries()) {
      // A number before each vector: one filtered to nothing would be refused as an empty post.
      const res = await users.as('author', 'POST', '/cms/v2/posts?context=edit', {
        body: { title: `${i} ${v.html}`, content: `${i} ${v.html}`, excerpt: `${i} ${v.html}`, status: 'publish' },
      });
      expect([v.name, res.status, res.status === 201 ? '' : res.body]).toEqual([v.name, 201, '']);
      for (const field of ['title', 'content', 'excerpt'] as const) {
        parts.push([`${i} ${v.name} ${field} raw`, res.body[field].raw], [`${i} ${v.name} ${field} rendered`, res.body[field].rendered]);
      }
    }
    const found = await render('author posts', parts);
    expect(found).toEqual({ ran: [], handlers: [], urls: [], elements: [] });
  }, 120000);
});
