// A minibatch cut into request-sized chunks, shared by the trainer backends: the in-process model bounds the memory
// of one forward/backward pass with it, the Tinker backend the size of one forward_backward request.
/** Consecutive runs of sequences with at most `budget` tokens each (a longer sequence alone). */
export function tokenChunks<T extends { readonly tokens: readonly number[] }>(
  items: readonly T[],
  budget: number,
): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    if (current.length > 0 && size + item.tokens.length > budget) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += item.tokens.length;
  }
  if (current.length > 0) out.push(current);
  return out;
}
