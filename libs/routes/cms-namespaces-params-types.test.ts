/**
 * The parameter types the cms-site-health/v1 and cms-block-editor/v1 endpoints derive from their
 * declarations (libs/rest/params.ts), checked by the compiler (`tsc --noEmit` runs in `npm test`): a
 * wrong derivation fails the type-check.
 */
import type { InputOf } from '../rest/params';
import { URL_DETAILS_ENDPOINT } from './cms-block-editor';
import { DIRECTORY_SIZES_ENDPOINT, SITE_HEALTH_TESTS, SITE_HEALTH_TEST_ENDPOINTS } from './cms-site-health';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const is = <T extends true>(): T | undefined => undefined;

type UrlDetails = InputOf<typeof URL_DETAILS_ENDPOINT>;

describe('cms namespaces parameter types', () => {
  it('types url-details by its sanitize callback, required', () => {
    is<Equal<UrlDetails['url'], string>>();
    is<Equal<keyof UrlDetails, 'url'>>();
  });

  it('gives the site health tests no arguments, one endpoint per test', () => {
    is<Equal<keyof InputOf<(typeof SITE_HEALTH_TEST_ENDPOINTS)['store']>, never>>();
    is<Equal<keyof InputOf<typeof DIRECTORY_SIZES_ENDPOINT>, never>>();
    expect(SITE_HEALTH_TESTS.map((t) => SITE_HEALTH_TEST_ENDPOINTS[t].id)).toEqual(SITE_HEALTH_TESTS.map((t) => `cms-site-health.tests.${t}`));
  });
});
