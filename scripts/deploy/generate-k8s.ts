/**
 * Regenerates k8s/base and k8s/components from the Helm chart. Run after changing the chart:
 *
 *   node -r ./scripts/ts-register.js scripts/deploy/generate-k8s.ts
 *
 * test/deploy/k8s.test.ts fails while the committed files differ from what this writes.
 */
import { writeK8s } from './k8s';

if (require.main === module) {
  const { written, removed } = writeK8s();
  for (const f of written) process.stdout.write(`wrote k8s/${f}\n`);
  for (const f of removed) process.stdout.write(`removed k8s/${f}\n`);
}
