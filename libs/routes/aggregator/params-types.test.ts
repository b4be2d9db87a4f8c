/**
 * The parameter types the aggregator's endpoints derive from their declarations (libs/rest/params.ts),
 * checked by the compiler (`tsc --noEmit` runs in `npm test`): a wrong derivation fails the type-check.
 */
import type { InputOf, Shared } from '../../rest/params';
import { AGGREGATOR_IMPORT_ENDPOINTS } from './import';
import { SOURCE_ENDPOINTS, type RemovedPolicy, type SourceOrigin, type SourceSchedule } from './sources';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const is = <T extends true>(): T | undefined => undefined;

type Batch = InputOf<typeof AGGREGATOR_IMPORT_ENDPOINTS.batch>;
type State = InputOf<typeof AGGREGATOR_IMPORT_ENDPOINTS.state>;
type List = InputOf<typeof SOURCE_ENDPOINTS.list>;
type Create = InputOf<typeof SOURCE_ENDPOINTS.create>;
type Update = InputOf<typeof SOURCE_ENDPOINTS.update>;
type Runs = InputOf<typeof SOURCE_ENDPOINTS.runs>;
type Written = InputOf<Shared<typeof SOURCE_ENDPOINTS.create | typeof SOURCE_ENDPOINTS.update>>;

describe('aggregator parameter types', () => {
  it('types the import endpoints: captures and required arguments present, the status enum its literals', () => {
    is<Equal<Batch['import_id'], string>>();
    is<Equal<Batch['batch_hash'], string>>();
    is<Equal<Batch['status'], Record<string, unknown>>>();
    is<Equal<Batch['percentage_complete'], number>>();
    is<Equal<Batch['interval'], number | null | undefined>>();
    is<Equal<State['status'], 'success' | 'failed' | 'pending'>>();
    is<Equal<State['message_slug'], string>>();
    expect(AGGREGATOR_IMPORT_ENDPOINTS.state.captures).toEqual(['import_id']);
  });

  it('types the sources endpoints: defaults present, enums their literals, the id capture present', () => {
    is<Equal<List['page'], number>>();
    is<Equal<List['per_page'], number>>();
    is<Equal<Create['origin'], SourceOrigin>>();
    is<Equal<Create['schedule'], SourceSchedule>>();
    is<Equal<Create['on_removed'], RemovedPolicy>>();
    is<Equal<Create['post_status'], 'publish' | 'draft' | 'pending' | 'private'>>();
    is<Equal<Create['categories'], number[] | null | undefined>>();
    is<Equal<Update['id'], number>>();
    is<Equal<Update['origin'], SourceOrigin | null | undefined>>();
    is<Equal<Update['schedule'], SourceSchedule | null | undefined>>();
    is<Equal<Runs['per_page'], number>>();
    // A create and an update write the same fields: what they share may be absent (update has no defaults).
    is<Equal<Written['schedule'], SourceSchedule | null | undefined>>();
    is<Equal<Written['title'], string | null | undefined>>();
    expect(SOURCE_ENDPOINTS.update.captures).toEqual(['id']);
  });
});
