/**
 * The parameter types derived from endpoint declarations (libs/rest/params.ts), checked by the compiler
 * (`tsc --noEmit` runs in `npm test`): a wrong derivation fails the type-check, not a test run.
 */
import { endpoint, type InputOf } from './params';
import { EC_ENDPOINTS } from '../routes/ec';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const is = <T extends true>(): T | undefined => undefined;

const sample = endpoint({
  id: 'sample',
  service: 'content',
  methods: ['GET'],
  captures: ['id'],
  args: {
    id: { type: 'integer' },
    page: { type: 'integer', default: 1 },
    search: { type: 'string' },
    order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
    include: { type: 'array', items: { type: 'integer' }, default: [] },
    date: { type: ['string', 'null'] },
    force: { type: 'boolean', default: false },
    website: { type: 'string', default: null },
    slug: { type: 'string', sanitize: (v: unknown) => String(v).length },
    name: { type: 'string', required: true },
    meta: { type: 'object' },
    loose: {},
  },
});
type S = InputOf<typeof sample>;
type L = InputOf<typeof EC_ENDPOINTS.events.list>;
type G = InputOf<typeof EC_ENDPOINTS.events.get>;
type D = InputOf<typeof EC_ENDPOINTS.venues.delete>;
type U = InputOf<typeof EC_ENDPOINTS.organizers.update>;

describe('parameter types derived from declarations', () => {
  it('types each argument as validation leaves it', () => {
    // A capture is always present; a default or `required` makes an argument present; others may be absent or null.
    is<Equal<S['id'], number>>();
    is<Equal<S['page'], number>>();
    is<Equal<S['search'], string | null | undefined>>();
    is<Equal<S['order'], 'asc' | 'desc'>>();
    is<Equal<S['include'], number[]>>();
    is<Equal<S['date'], string | null | undefined>>();
    is<Equal<S['force'], boolean>>();
    is<Equal<S['website'], string | null>>();
    is<Equal<S['slug'], number | null | undefined>>();
    is<Equal<S['name'], string>>();
    is<Equal<S['meta'], Record<string, unknown> | null | undefined>>();
    is<Equal<S['loose'], unknown>>();
    expect(sample.captures).toEqual(['id']);
  });

  it('types the ec/v1 endpoints from their declarations', () => {
    is<Equal<L['page'], number>>();
    is<Equal<L['status'], string[]>>();
    is<Equal<L['order'], 'ASC' | 'DESC'>>();
    is<Equal<L['venue'], number[] | null | undefined>>();
    is<Equal<G['id'], number>>();
    is<Equal<G['password'], string | null | undefined>>();
    is<Equal<D['force'], boolean>>();
    is<Equal<U['website'], string | null | undefined>>();
    expect(EC_ENDPOINTS.events.get.captures).toEqual(['id']);
  });
});
