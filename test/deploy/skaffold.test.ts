/**
 * skaffold.yaml: valid against a schema of the fields it uses (scripts/deploy/skaffold.schema.json),
 * and consistent with the repository: the Dockerfile stage it builds, the chart and values files it
 * deploys, the values its image templates set, and the Service it forwards.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { validateManifests } from '../../scripts/deploy/manifests';
import { helmTemplate, objectsOrThrow } from '../../scripts/deploy/render';
import { helmSetArgs, readSkaffold, skaffoldSchemaErrors, withProfile, type SkaffoldConfig } from '../../scripts/deploy/skaffold';
import { REPO_ROOT } from '../../scripts/deploy/tools';
import { appDeployments, startupConfigProblems, wiringProblems } from '../../scripts/deploy/wiring';

const raw = readSkaffold();
const config = raw as SkaffoldConfig;

/** `helm template` as skaffold would run the release, plus the user's own values files. */
function templateRelease(c: SkaffoldConfig, ownValuesFiles: string[] = []) {
  const release = c.deploy.helm.releases[0];
  return helmTemplate({
    release: release.name,
    namespace: release.namespace,
    chartDir: path.join(REPO_ROOT, release.chartPath),
    valuesFiles: [...(release.valuesFiles ?? []).map((f) => path.join(REPO_ROOT, f)), ...ownValuesFiles],
    args: helmSetArgs(c, release),
  });
}

function renderRelease(c: SkaffoldConfig, ownValuesFiles: string[] = []) {
  return objectsOrThrow(templateRelease(c, ownValuesFiles), `helm template as skaffold would run it`);
}

describe('skaffold.yaml', () => {
  test('matches the schema of the fields it uses', () => {
    expect(skaffoldSchemaErrors(raw)).toEqual([]);
  });

  test('the schema refuses misspelt or mistyped fields', () => {
    const broken = structuredClone(config) as unknown as {
      deploy: { helm: { releases: Array<Record<string, unknown>> } };
      portForward: Array<Record<string, unknown>>;
    };
    broken.deploy.helm.releases[0].chartpath = 'charts/x';
    broken.portForward[0].localPort = 'eighty';
    const errors = skaffoldSchemaErrors(broken);
    expect(errors.some((e) => e.includes('chartpath'))).toBe(true);
    expect(errors.some((e) => e.includes('/portForward/0/localPort'))).toBe(true);
  });

  test('builds the runtime stage of the Dockerfile', () => {
    const dockerfile = fs.readFileSync(path.join(REPO_ROOT, config.build.artifacts[0].docker.dockerfile), 'utf8');
    const target = config.build.artifacts[0].docker.target;
    expect(target).toBe('runtime');
    expect(dockerfile).toMatch(new RegExp(`^FROM\\s+\\S+\\s+AS\\s+${target}\\s*$`, 'im'));
  });

  test('deploys the chart with files that exist', () => {
    for (const profile of [null, ...(config.profiles ?? []).map((p) => p.name)]) {
      const c = profile ? withProfile(config, profile) : config;
      for (const r of c.deploy.helm.releases) {
        expect(fs.existsSync(path.join(REPO_ROOT, r.chartPath, 'Chart.yaml'))).toBe(true);
        for (const f of r.valuesFiles ?? []) expect([f, fs.existsSync(path.join(REPO_ROOT, f))]).toEqual([f, true]);
      }
    }
  });

  test('the default deploy refuses to render until the stores are given, as its comment says', () => {
    const r = templateRelease(config);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('set mongo.url or existingSecret');
    expect(fs.readFileSync(path.join(REPO_ROOT, 'skaffold.yaml'), 'utf8')).toContain('with mongo.url and redis.url (or existingSecret)');
  });

  test('the default deploy with the stores renders valid objects with the image skaffold built and forwards the gateway', () => {
    const objects = renderRelease(config, [path.join(REPO_ROOT, 'charts', 'events-calendar', 'ci', 'external-values.yaml')]);
    expect(validateManifests(objects)).toEqual([]);
    for (const d of appDeployments(objects)) expect(d.container.image).toBe(`${config.build.artifacts[0].image}:0123abcd`);
    for (const pf of config.portForward ?? []) {
      expect(pf.resourceType).toBe('service');
      const svc = objects.find((o) => o.kind === 'Service' && o.metadata.name === pf.resourceName) as unknown as { spec: { ports: Array<{ port: number }> } };
      expect(svc).toBeDefined();
      expect(svc.spec.ports.map((p) => p.port)).toContain(pf.port);
      const gateway = appDeployments(objects).find((d) => d.role === 'gateway');
      expect(pf.resourceName).toBe(gateway?.name);
    }
  });

  test('the dev profile: runs on skaffold dev, one worker pod for every queue, MongoDB and Redis in the release', () => {
    const dev = (config.profiles ?? []).find((p) => p.name === 'dev');
    expect(dev?.activation).toEqual(expect.arrayContaining([{ command: 'dev' }]));
    const objects = renderRelease(withProfile(config, 'dev'));
    expect(validateManifests(objects)).toEqual([]);
    expect(wiringProblems(objects)).toEqual([]);
    expect(startupConfigProblems(objects)).toEqual([]);
    const workers = appDeployments(objects).filter((d) => d.role === 'worker');
    expect(workers).toHaveLength(1);
    expect(workers[0].deployment.spec?.replicas).toBe(1);
    expect(objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')).toEqual([]);
    expect(objects.some((o) => o.kind === 'StatefulSet' && o.metadata.name.endsWith('-mongodb'))).toBe(true);
    expect(objects.some((o) => o.kind === 'Deployment' && o.metadata.name.endsWith('-redis'))).toBe(true);
    expect(objects.some((o) => o.kind === 'Service' && o.metadata.name === (config.portForward ?? [])[0]?.resourceName)).toBe(true);
  });
});
