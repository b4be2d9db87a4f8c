/**
 * `npm run geocode-venues [-- --no-wait]` (node dist/scripts/geocode-venues.js): geocodes every venue
 * without coordinates (extended edition, with a geocoder configured), with the service's environment.
 * With REDIS_URL it enqueues the jobs for the workers (at most 1000 waiting at a time) and, unless
 * --no-wait, follows them to the end; without it, it runs them itself at GEOCODER_RATE_PER_SECOND.
 * Prints one progress line per page and one when done, as JSON.
 */
import { loadConfig } from '#libs/config/env';
import { ensureCollections } from '#libs/data/ensure';
import { geocodeAllVenues } from '#libs/geocode/bulk';
import { activeGeocoder, geocodeJobHandlers, geocodeRates } from '#libs/geocode/jobs';
import { openQueue } from '#libs/queue/index';
import { openStore } from '#libs/store/index';

async function main(): Promise<number> {
  const config = loadConfig();
  if (!activeGeocoder(config)) {
    process.stderr.write('Nothing to do: geocoding needs EDITION=extended and a geocoder (GEOCODER_URL, or GEOCODER_PROVIDER=google with GEOCODER_API_KEY).\n');
    return 2;
  }
  const store = await openStore({ mongoUrl: config.MONGO_URL, mongoDb: config.MONGO_DB, dataDir: config.DATA_DIR });
  await ensureCollections(store);
  const queue = openQueue(config, geocodeJobHandlers({ store, config }), geocodeRates(config));
  try {
    const done = await geocodeAllVenues(store, queue, {
      wait: !config.REDIS_URL || !process.argv.includes('--no-wait'),
      onProgress: (p) => process.stdout.write(`${JSON.stringify({ progress: p })}\n`),
    });
    process.stdout.write(`${JSON.stringify({ done })}\n`);
    return 0;
  } finally {
    await queue.close();
    await store.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`geocode-venues failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
