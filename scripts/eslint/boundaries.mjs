// The import boundaries of the project, as an ESLint rule (eslint.config.mjs turns it on):
// - libs never import services: libs/ is what every service is built from;
// - services never import each other: services/<a>/ reaches services/<b>/ only through libs/ (the
//   route registry, the dispatch contract) or over HTTP, and never the process modules that assemble
//   them (services/*.ts: runtime, host, main), which alone may import any service.
// Relative specifiers and `#libs/...` name files of the project; a package import is never crossed.
import path from 'node:path';

/** Where a file of the project stands: libs, one service (by name), the process modules, or elsewhere (tests, scripts). */
function placeOf(rel) {
  const parts = rel.split('/');
  if (parts[0] === 'libs') return { layer: 'libs' };
  if (parts[0] !== 'services' || parts.length < 2) return { layer: 'other' };
  return parts.length === 2 ? { layer: 'process', name: parts[1].replace(/\.[cm]?[jt]s$/, '') } : { layer: 'service', name: parts[1] };
}

/** Why `from` may not import `to`, or null where it may. */
export function crossing(from, to) {
  if (from.layer === 'libs' && (to.layer === 'service' || to.layer === 'process')) return 'libs never import services';
  if (from.layer !== 'service') return null;
  if (to.layer === 'service' && to.name !== from.name) return `services never import each other: ${from.name} imports ${to.name}`;
  if (to.layer === 'process') return `a service never imports the process modules that assemble it: ${from.name} imports services/${to.name}`;
  return null;
}

const noCrossing = {
  meta: {
    type: 'problem',
    docs: { description: 'libs never import services; services never import each other nor the process modules' },
    schema: [],
    messages: { crossing: '{{why}} ({{specifier}}); move what both need to libs/.' },
  },
  create(context) {
    const root = context.cwd;
    const file = path
      .relative(root, context.physicalFilename ?? context.filename)
      .split(path.sep)
      .join('/');
    const from = placeOf(file);
    if (from.layer !== 'libs' && from.layer !== 'service') return {};
    const check = (node, specifier) => {
      if (typeof specifier !== 'string') return;
      // `#libs/...` (package.json "imports") names a file of libs/.
      const alias = specifier.startsWith('#libs/') ? `libs/${specifier.slice('#libs/'.length)}` : null;
      if (!alias && !specifier.startsWith('.')) return;
      const target =
        alias ??
        path
          .relative(root, path.resolve(path.dirname(path.resolve(root, file)), specifier))
          .split(path.sep)
          .join('/');
      const why = crossing(from, placeOf(target));
      if (why) context.report({ node, messageId: 'crossing', data: { why, specifier } });
    };
    const literal = (node) => (node && node.type === 'Literal' ? node.value : undefined);
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => check(node.source, literal(node.source)),
      TSImportEqualsDeclaration: (node) =>
        node.moduleReference.type === 'TSExternalModuleReference' && check(node.moduleReference, literal(node.moduleReference.expression)),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1)
          check(node.arguments[0], literal(node.arguments[0]));
      },
    };
  },
};

export default { meta: { name: 'boundaries' }, rules: { 'no-crossing': noCrossing } };
