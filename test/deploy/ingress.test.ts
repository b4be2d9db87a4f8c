/**
 * The Ingress, rendered offline from the chart (every ci/ values file that enables it, the default public
 * paths, and the generated k8s/ component): it routes what the public reaches (the home page, the REST
 * root under /index.php, the calendar page and its feed under /events/, uploads and assets under
 * /cms-content/, the authorisation page under /cms-admin/) and never the gateway's /metrics, /healthz or
 * /readyz, which share its port. The chart refuses paths that would route them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';

import type { K8sObject } from '../../scripts/deploy/manifests';
import { helmTemplate, objectsOrThrow } from '../../scripts/deploy/render';
import { CHART_DIR, REPO_ROOT } from '../../scripts/deploy/tools';

interface IngressPath {
  path: string;
  pathType: 'Exact' | 'Prefix' | 'ImplementationSpecific';
}
interface IngressObject extends K8sObject {
  spec: { rules: Array<{ host: string; http: { paths: IngressPath[] } }> };
}

const CI_DIR = path.join(CHART_DIR, 'ci');
const EXTERNAL = path.join(CI_DIR, 'external-values.yaml');

/** Whether a request for `url` (a path) is routed by one of the paths, as Kubernetes matches them. */
function routes(paths: IngressPath[], url: string): boolean {
  return paths.some((p) => {
    if (p.pathType === 'Exact') return url === p.path;
    // Prefix (ImplementationSpecific read the same way): element by element of the '/'-split path.
    const prefix = p.path.replace(/\/+$/, '');
    return prefix === '' || url === prefix || url.startsWith(`${prefix}/`);
  });
}

const PUBLIC = [
  '/',
  '/index.php',
  '/index.php/cms-json/',
  '/index.php/cms-json/cms/v2/posts',
  '/events/',
  '/events/list/',
  '/cms-content/uploads/2030/01/a.jpg',
  '/cms-content/calendar/calendar.css',
  '/cms-admin/authorize-application.php',
];
const HIDDEN = ['/metrics', '/metrics/', '/healthz', '/readyz'];

function ingresses(objects: K8sObject[]): IngressObject[] {
  return objects.filter((o): o is IngressObject => o.kind === 'Ingress');
}

function pathsOf(ingress: IngressObject): IngressPath[] {
  return ingress.spec.rules.flatMap((r) => r.http.paths);
}

describe('Ingress', () => {
  const renders: Array<[string, IngressObject[]]> = [
    ...fs
      .readdirSync(CI_DIR)
      .filter((f) => f.endsWith('-values.yaml'))
      .map((f): [string, IngressObject[]] => [f, ingresses(objectsOrThrow(helmTemplate({ valuesFiles: [path.join(CI_DIR, f)] }), `helm template -f ${f}`))]),
    [
      'a host without paths',
      ingresses(
        objectsOrThrow(
          helmTemplate({ valuesFiles: [EXTERNAL], values: { ingress: { enabled: true, hosts: [{ host: 'cal.example.net' }] } } }),
          'helm template',
        ),
      ),
    ],
    [
      'k8s/components/ingress',
      ingresses(parseAllDocuments(fs.readFileSync(path.join(REPO_ROOT, 'k8s/components/ingress/ingress.yaml'), 'utf8')).map((d) => d.toJSON() as K8sObject)),
    ],
  ];

  test('the production-like and trial values, a bare host and the k8s component each render one', () => {
    const withIngress = renders.filter(([, list]) => list.length === 1).map(([name]) => name);
    expect(withIngress).toEqual(expect.arrayContaining(['production-values.yaml', 'trial-values.yaml', 'a host without paths', 'k8s/components/ingress']));
  });

  test.each(renders.filter(([, list]) => list.length > 0))('%s: the public paths are routed, /metrics, /healthz and /readyz are not', (_name, list) => {
    for (const ingress of list) {
      const paths = pathsOf(ingress);
      expect(PUBLIC.filter((u) => !routes(paths, u))).toEqual([]);
      expect(HIDDEN.filter((u) => routes(paths, u))).toEqual([]);
    }
  });

  test('the route reading matches Kubernetes: a Prefix of / routes everything, an Exact one only the home page', () => {
    expect(routes([{ path: '/', pathType: 'Prefix' }], '/metrics')).toBe(true);
    expect(routes([{ path: '/', pathType: 'Exact' }], '/metrics')).toBe(false);
    expect(routes([{ path: '/events', pathType: 'Prefix' }], '/eventsx')).toBe(false);
    expect(routes([{ path: '/events', pathType: 'Prefix' }], '/events/')).toBe(true);
  });

  test.each([
    ['/ as a Prefix', { path: '/', pathType: 'Prefix' }],
    ['/ as ImplementationSpecific', { path: '/', pathType: 'ImplementationSpecific' }],
    ['/metrics', { path: '/metrics', pathType: 'Exact' }],
    ['a path under /healthz', { path: '/healthz/deep', pathType: 'Prefix' }],
  ])('the chart refuses %s', (_label, p) => {
    const r = helmTemplate({ valuesFiles: [EXTERNAL], values: { ingress: { enabled: true, hosts: [{ host: 'cal.example.net', paths: [p] }] } } });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/would make the gateway's \/metrics, \/healthz and \/readyz public/);
  });

  test('paths of ones own under the public ones are kept as given', () => {
    const list = ingresses(
      objectsOrThrow(
        helmTemplate({
          valuesFiles: [EXTERNAL],
          values: { ingress: { enabled: true, hosts: [{ host: 'cal.example.net', paths: [{ path: '/index.php', pathType: 'Prefix' }] }] } },
        }),
        'helm template',
      ),
    );
    expect(pathsOf(list[0])).toEqual([expect.objectContaining({ path: '/index.php', pathType: 'Prefix' })]);
  });
});
