/** Registry-driven fuzzing of every route on the embedded SQLite store (test/support/fuzz-routes.ts says what is checked). */
import { fuzzEveryRoute } from './support/fuzz-routes';

fuzzEveryRoute('sqlite', {});
