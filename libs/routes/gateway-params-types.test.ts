/**
 * The parameter types the endpoints the gateway answers itself (the site index, the batch executor,
 * cms-abilities/v1) derive from their declarations (libs/rest/params.ts), checked by the compiler
 * (`tsc --noEmit` runs in `npm test`): a wrong derivation fails the type-check.
 */
import type { InputOf } from '../rest/params';
import { ABILITY_ENDPOINTS } from './cms-abilities';
import { BATCH_ENDPOINT, SITE_INDEX_ENDPOINT } from './site';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const is = <T extends true>(): T | undefined => undefined;

type Batch = InputOf<typeof BATCH_ENDPOINT>;
type Categories = InputOf<typeof ABILITY_ENDPOINTS.categories>;
type List = InputOf<typeof ABILITY_ENDPOINTS.list>;
type Run = InputOf<typeof ABILITY_ENDPOINTS.run>;

describe('gateway endpoint parameter types', () => {
  it('types the site index and batch arguments', () => {
    // Declared without a type, as in the reference.
    is<Equal<InputOf<typeof SITE_INDEX_ENDPOINT>['context'], unknown>>();
    is<Equal<Batch['validation'], 'require-all-validate' | 'normal'>>();
    // Objects derive as records, not property by property.
    is<Equal<Batch['requests'], Array<Record<string, unknown>>>>();
  });

  it('types the abilities arguments: captures present, sanitized filters strings', () => {
    is<Equal<Categories['page'], number>>();
    is<Equal<Categories['per_page'], number>>();
    is<Equal<InputOf<typeof ABILITY_ENDPOINTS.category>['slug'], string>>();
    is<Equal<InputOf<typeof ABILITY_ENDPOINTS.single>['name'], string>>();
    is<Equal<List['category'], string | null | undefined>>();
    is<Equal<List['meta'], Record<string, unknown> | null | undefined>>();
    is<Equal<Run['name'], string>>();
    is<Equal<Run['input'], string | number | boolean | unknown[] | Record<string, unknown> | null>>();
    expect(ABILITY_ENDPOINTS.run.captures).toEqual(['name']);
  });
});
