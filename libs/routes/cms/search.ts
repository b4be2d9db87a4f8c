/** cms/v2 search across posts, terms and post formats (reference: the search controller and its handlers). */
import { POST_TYPES, TAXONOMIES } from '../../posts/registered';
import { endpoint } from '../../rest/params';
import type { RouteRegistry } from '../../rest/registry';
import { contextArg, idListArg, pageArg, perPageArg, searchArg, objectSchema } from '../common';

export const SEARCH_TYPES = ['post', 'term', 'post-format'] as const;

/** Subtypes of the post handler (public types shown in REST, never attachments) and of the term handler. */
export const POST_SUBTYPES = POST_TYPES.filter((t) => t.public && t.name !== 'attachment').map((t) => t.name);
export const TERM_SUBTYPES = TAXONOMIES.filter((t) => t.public && t.showInRest).map((t) => t.name);

export function searchSchema(): Record<string, unknown> {
  const ctx = ['view', 'embed'];
  return objectSchema('search-result', {
    id: { description: 'Unique identifier for the object.', type: ['integer', 'string'], context: ctx, readonly: true },
    title: { description: 'The title for the object.', type: 'string', context: ctx, readonly: true },
    url: { description: 'URL to the object.', type: 'string', format: 'uri', context: ctx, readonly: true },
    type: { description: 'Object type.', type: 'string', enum: SEARCH_TYPES, context: ctx, readonly: true },
    subtype: { description: 'Object subtype.', type: 'string', enum: [...POST_SUBTYPES, ...TERM_SUBTYPES], context: ctx, readonly: true },
    label: { description: 'Object human readable subtype.', type: 'string', context: ctx, readonly: true },
  });
}

export const SEARCH_ENDPOINT = endpoint({
  id: 'cms.search',
  service: 'content',
  methods: ['GET'],
  args: {
    context: contextArg('view', ['view', 'embed']),
    page: pageArg(),
    per_page: perPageArg(),
    search: searchArg(),
    type: { default: 'post', description: 'Limit results to items of an object type.', type: 'string', enum: SEARCH_TYPES },
    subtype: {
      default: 'any',
      description: 'Limit results to items of one or more object subtypes.',
      type: 'array',
      items: { enum: [...POST_SUBTYPES, ...TERM_SUBTYPES, 'any'], type: 'string' },
      // 'any' overrides any other subtype; the handler keeps those of the requested type.
      sanitize: (v: unknown): string[] => {
        // Validated: a list of strings (the filter only tells the compiler so).
        const list = [...new Set(Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [])];
        return list.includes('any') ? ['any'] : list;
      },
    },
    exclude: idListArg('Ensure result set excludes specific IDs.'),
    include: idListArg('Limit result set to specific IDs.'),
  },
});

export function registerSearchRoutes(registry: RouteRegistry): void {
  registry.add({ namespace: 'cms/v2', pattern: '/cms/v2/search', endpoints: [SEARCH_ENDPOINT], schema: searchSchema });
}
