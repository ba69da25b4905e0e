// Small statistics shared by the advantage estimators: mean and sample standard deviation (n - 1, as
// torch.std and verl's GRPO use), defined as 0 for fewer than two values.

export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

export function sampleStd(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  let sum = 0;
  for (const value of values) sum += (value - m) ** 2;
  return Math.sqrt(sum / (values.length - 1));
}

/** Discounted returns G_t = r_t + gamma * G_{t+1}, for every t. */
export function discountedReturns(rewards: readonly number[], gamma: number): number[] {
  const out = new Array<number>(rewards.length);
  let running = 0;
  for (let t = rewards.length - 1; t >= 0; t--) {
    running = rewards[t]! + gamma * running;
    out[t] = running;
  }
  return out;
}
