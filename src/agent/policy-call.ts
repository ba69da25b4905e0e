// One call of a policy, guarded: what the rollout loop does instead of `await policy.act(...)`.
//   - an Act without a message with string content is a policy error naming what came back (PolicyReplyError),
//     not a silently invalid turn;
//   - a call that does not answer within the turn timeout is a policy error (PolicyTimeoutError): the episode ends
//     with stopReason "error" and a resumed run retries it, so a hung policy never hangs a run;
//   - a stop signal (Ctrl-C) abandons the calls in flight at once (StoppedError), whatever the policy does;
//   - every few milliseconds of back-to-back calls the caller yields to the event loop (setImmediate): scripted
//     policies answer in microtasks, and without a macrotask turn no signal handler or timer could ever run.
// One watchdog timer per caller (not one per call) checks the calls in flight, so a guarded call costs a clock
// read and a promise, and an unguarded one (no timeout, no signal) costs nothing but a counter; the rollout engine
// shares one caller between all episodes of a run and disposes it at the end.
import { BudgetrlError, StoppedError } from "../core/errors.js";
import type { Message } from "../core/message.js";
import { PolicyReplyError, type Act, type Policy, type PolicyContext } from "../core/policy.js";
import { describeValue } from "../core/describe-value.js";

/** A policy call did not answer within the turn timeout. */
export class PolicyTimeoutError extends BudgetrlError {
  constructor(policy: string, seconds: number) {
    super("policy:timeout", `policy ${policy} did not answer within the turn timeout of ${seconds} s (--turn-timeout)`);
    this.name = "PolicyTimeoutError";
  }
}

export interface PolicyCallerOptions {
  /** Seconds a policy call may take (default: no limit). */
  readonly turnTimeout?: number;
  readonly signal?: AbortSignal;
  /** Milliseconds of back-to-back work between two yields to the event loop (default 10). */
  readonly yieldEvery?: number;
  /** Clock in milliseconds (default performance.now). */
  readonly now?: () => number;
}

export interface PolicyCaller {
  /** Call the policy; resolves with what it answered (check it with `checkedAct`), or rejects with the policy's
   * error, a PolicyTimeoutError or a StoppedError. */
  call(policy: Policy, conversation: readonly Message[], context: PolicyContext): Promise<Act>;
  /** Stop the watchdog (calls still in flight are left to settle on their own). */
  dispose(): void;
}

interface InFlight {
  readonly started: number;
  readonly policy: string;
  readonly reject: (error: unknown) => void;
}

/** What is wrong with a policy's Act, or undefined when it holds a message with string content. */
export function replyProblem(act: unknown): string | undefined {
  if (act === null || typeof act !== "object" || !("message" in act)) return describeValue(act);
  const message = (act as { message: unknown }).message;
  if (message === null || typeof message !== "object") return `a message that is ${describeValue(message)}`;
  const content = (message as { content?: unknown }).content;
  if (typeof content !== "string") return `a message whose content is ${describeValue(content)}`;
  return undefined;
}

const CALLS_BETWEEN_CLOCK_READS = 64;

export function createPolicyCaller(options: PolicyCallerOptions = {}): PolicyCaller {
  const now = options.now ?? (() => performance.now());
  const timeoutMs = options.turnTimeout === undefined ? Infinity : options.turnTimeout * 1000;
  if (!(timeoutMs > 0)) throw new RangeError(`turnTimeout must be positive, got ${options.turnTimeout}`);
  const yieldEvery = options.yieldEvery ?? 10;
  const signal = options.signal;
  const inFlight = new Set<InFlight>();
  let watchdog: ReturnType<typeof setInterval> | undefined;
  let calls = 0;
  let lastYield = now();

  const stopped = (): StoppedError => new StoppedError("rollout stopped");
  const onAbort = (): void => {
    for (const entry of inFlight) entry.reject(stopped());
    inFlight.clear();
  };
  signal?.addEventListener("abort", onAbort, { once: true });

  const check = (): void => {
    const time = now();
    for (const entry of inFlight) {
      if (time - entry.started < timeoutMs) continue;
      inFlight.delete(entry);
      entry.reject(new PolicyTimeoutError(entry.policy, timeoutMs / 1000));
    }
  };
  const armWatchdog = (): void => {
    if (watchdog !== undefined || timeoutMs === Infinity) return;
    // Kept referenced: a call that never settles must still be timed out, not let the process exit. It checks
    // every quarter of the timeout (5 ms to 1 s), so a call is stopped between 1 and 1.25 timeouts.
    watchdog = setInterval(check, Math.max(5, Math.min(1000, timeoutMs / 4)));
  };
  const guarded = (pending: Promise<Act>, policy: string): Promise<Act> =>
    new Promise<Act>((resolve, reject) => {
      const entry: InFlight = { started: now(), policy, reject };
      inFlight.add(entry);
      armWatchdog();
      pending.then(
        (act) => {
          if (inFlight.delete(entry)) resolve(act);
        },
        (error: unknown) => {
          if (inFlight.delete(entry)) reject(error);
        },
      );
    });
  /** True every few milliseconds of back-to-back calls (the clock is read once every 64 calls). */
  const yieldDue = (): boolean => ++calls % CALLS_BETWEEN_CLOCK_READS === 0 && now() - lastYield >= yieldEvery;
  const afterYield = (): Promise<void> =>
    new Promise<void>((resolve) =>
      setImmediate(() => {
        lastYield = now();
        resolve();
      }),
    );
  const start = (policy: Policy, conversation: readonly Message[], context: PolicyContext): Promise<Act> => {
    if (signal?.aborted === true) return Promise.reject(stopped());
    // Promise.resolve returns a native promise as it is: no extra turn of the microtask queue on the fast path.
    const pending = Promise.resolve(policy.act(conversation, context));
    return timeoutMs === Infinity && signal === undefined ? pending : guarded(pending, policy.name);
  };

  return {
    call(policy, conversation, context) {
      try {
        return yieldDue()
          ? afterYield().then(() => start(policy, conversation, context))
          : start(policy, conversation, context);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    dispose() {
      if (watchdog !== undefined) clearInterval(watchdog);
      watchdog = undefined;
      signal?.removeEventListener("abort", onAbort);
    },
  };
}

/** The Act a policy call resolved with, checked: a PolicyReplyError names anything that is not a message with
 * string content (the rollout loop checks every reply with it). */
export function checkedAct(policy: Policy, act: unknown): Act {
  const problem = replyProblem(act);
  if (problem !== undefined) throw new PolicyReplyError(policy.name, problem);
  return act as Act;
}
