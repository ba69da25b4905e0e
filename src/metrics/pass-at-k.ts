// Pass@k, the unbiased estimator (Chen et al. 2021, "Evaluating Large Language Models Trained on Code"):
//   pass@k = 1 - C(n - c, k) / C(n, k)        n samples of a task, c of them successful, k <= n
// computed in the numerically stable product form
//   C(n - c, k) / C(n, k) = prod_{i = n - c + 1}^{n} (1 - k / i)
// Edge cases: c = 0 gives 0; n - c < k gives 1 (every k-subset holds a success); k must be in [1, n].

export function passAtK(n: number, c: number, k: number): number {
  if (!(Number.isInteger(n) && Number.isInteger(c) && Number.isInteger(k)))
    throw new RangeError(`passAtK: integers required, got n=${n} c=${c} k=${k}`);
  if (k < 1 || k > n) throw new RangeError(`passAtK: k must be in [1, n], got k=${k} n=${n}`);
  if (c < 0 || c > n) throw new RangeError(`passAtK: c must be in [0, n], got c=${c} n=${n}`);
  if (c === 0) return 0;
  if (n - c < k) return 1;
  let failAll = 1;
  for (let i = n - c + 1; i <= n; i++) failAll *= 1 - k / i;
  return 1 - failAll;
}
