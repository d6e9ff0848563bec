// The throwaway PostgreSQL server of the tests (Debian's postgresql, as the `postgres` user when root).
export { postgresBinaries, startPostgres, type TestPostgres } from "../../scripts/postgres/throwaway.js";
