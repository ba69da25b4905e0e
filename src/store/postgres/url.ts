// Whether --db names a PostgreSQL database (a postgres:// or postgresql:// URL), and how messages show it (no
// password). Apart from open.ts so that telling the backends apart does not load the `pg` client.
import { withoutPassword } from "../../core/url-location.js";

export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** The URL without its password, as messages show it. */
export function postgresLocation(url: string): string {
  return withoutPassword(url);
}
