// A service URL as messages and printed commands may show it: without its password (Redis, PostgreSQL, ...).
// A URL the WHATWG parser refuses still loses a `user:password@` part.

export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === "") return url;
    parsed.password = "";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1@");
  }
}
