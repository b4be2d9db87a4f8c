/**
 * Registry-driven fuzzing of every route on MongoDB (test/support/fuzz-routes.ts says what is checked).
 * In the full tier: on the MongoDB-wire test server it takes minutes.
 */
import { fuzzEveryRoute } from './support/fuzz-routes';

fuzzEveryRoute('mongo', { MONGO_URL: process.env.TEST_MONGO_URL, MONGO_DB: `fuzz_${process.pid}_${Date.now()}` });
