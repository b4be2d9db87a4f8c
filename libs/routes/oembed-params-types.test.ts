/**
 * The parameter types oembed/1.0's endpoints derive from their declarations (libs/rest/params.ts),
 * checked by the compiler (`tsc --noEmit` runs in `npm test`): a wrong derivation fails the type-check.
 */
import type { InputOf } from '../rest/params';
import { OEMBED_ENDPOINTS } from './oembed';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const is = <T extends true>(): T | undefined => undefined;

type Embed = InputOf<typeof OEMBED_ENDPOINTS.embed>;
type Proxy = InputOf<typeof OEMBED_ENDPOINTS.proxy>;

describe('oembed parameter types', () => {
  it('types the untyped embed arguments by their sanitize callbacks', () => {
    is<Equal<Embed['url'], string>>();
    is<Equal<Embed['format'], 'json' | 'xml'>>();
    is<Equal<Embed['maxwidth'], number>>();
    expect(OEMBED_ENDPOINTS.embed.captures).toEqual([]);
  });

  it('types the proxy arguments: defaults present, maxheight possibly absent', () => {
    is<Equal<Proxy['url'], string>>();
    is<Equal<Proxy['format'], 'json' | 'xml'>>();
    is<Equal<Proxy['maxwidth'], number>>();
    is<Equal<Proxy['maxheight'], number | null | undefined>>();
    is<Equal<Proxy['discover'], boolean>>();
  });
});
