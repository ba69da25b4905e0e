// Waiting for a state (a queue count, a job held by a worker), read again until it holds or a deadline passes:
// tests synchronise on what the system says, never on how long something should take.
export async function until<T>(
  read: () => Promise<T>,
  holds: (value: T) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
