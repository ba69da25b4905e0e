// The kernel contract: the hot operations of the transformer as functions over flat Float32Array views.
// Two implementations: `reference.ts` (plain TypeScript, the readable definition) and `wasm.ts`
// (WebAssembly SIMD over the shared heap; views must live in that heap). Shapes are given as (rows, cols),
// row-major; "accumulate" means the result is added to what the output already holds.
/** Positions a KV-cache slot holds: contextLength rounded up to whole panels of 8. */
export function cachePositions(contextLength: number): number {
  return Math.ceil(contextLength / 8) * 8;
}

export interface Kernels {
  readonly name: "reference" | "wasm";
  /** out(m, n) (+)= a(m, k) . b(k, n). */
  matmul(
    out: Float32Array,
    a: Float32Array,
    b: Float32Array,
    m: number,
    n: number,
    k: number,
    accumulate: boolean,
  ): void;
  /** out(m, n) (+)= a^T . b where a is stored (k, m) and b is (k, n): the weight gradients. */
  matmulTransposedA(
    out: Float32Array,
    a: Float32Array,
    b: Float32Array,
    m: number,
    n: number,
    k: number,
    accumulate: boolean,
  ): void;
  /**
   * The general product: out[i ldc + j] (+)= sum_p a[i ars + p acs] * b[p ldb + j] for i < m, j < n, p < k.
   * Strided A covers A (ars = k, acs = 1) and A^T (ars = 1, acs = m); row strides pick heads out of qkv.
   */
  gemm(
    out: Float32Array,
    ldc: number,
    a: Float32Array,
    ars: number,
    acs: number,
    b: Float32Array,
    ldb: number,
    m: number,
    n: number,
    k: number,
    accumulate: boolean,
  ): void;
  /**
   * gemm with B stored in panels of 8 columns: element (p, j) of B at b[(j / 8) * panelStride + 8 p + j % 8]
   * (each panel a contiguous row-major (k, 8) block; the last one padded to 8 columns).
   */
  gemmPanels(
    out: Float32Array,
    ldc: number,
    a: Float32Array,
    ars: number,
    acs: number,
    b: Float32Array,
    panelStride: number,
    m: number,
    n: number,
    k: number,
    accumulate: boolean,
  ): void;
  /**
   * Causal attention of one head for n query rows at positions past..past+n-1 over keys 0..past+n-1 (past 0:
   * a whole sequence), in blocks of 16 query rows: probs = causalSoftmax(scale * q . k^T) with row stride
   * past + n (row i keeps keys 0..past+i, zeros after), out (n, hd) = probs . v. With keepProbs the whole
   * (n, past + n) matrix is kept (for the backward pass); without, `probs` needs 16 rows and every block
   * reuses them. q rows have stride qStride, v rows ldv, out rows outStride; k^T element (d, j) is at
   * kT[(j / 8) kPanel + d ldk + j % 8] (a row-major k^T: kPanel = 8; KV-cache panels: ldk = 8, kPanel = 8 hd).
   */
  causalAttention(
    out: Float32Array,
    outStride: number,
    q: Float32Array,
    qStride: number,
    kT: Float32Array,
    ldk: number,
    kPanel: number,
    v: Float32Array,
    ldv: number,
    probs: Float32Array,
    n: number,
    hd: number,
    scale: number,
    past: number,
    keepProbs: boolean,
  ): void;
  /** out(cols, rows) = x^T, where x is (rows, cols) with row stride `stride` (a head's keys or values out of qkv). */
  transpose(out: Float32Array, x: Float32Array, rows: number, cols: number, stride: number): void;
  /** Causal softmax in place on (rows, ld) scores: row i keeps columns 0..i (times scale), the rest of its `cols` become 0. */
  causalSoftmax(scores: Float32Array, ld: number, rows: number, cols: number, scale: number): void;
  /**
   * In place: dProbs -> scale * p * (dProbs - rowsum(p * dProbs)) on columns 0..past+i of row i, 0 after (the
   * scores' gradient; past > 0: query rows at positions past.. of their sequence, as causalAttention).
   */
  causalSoftmaxBackward(
    d: Float32Array,
    probs: Float32Array,
    ld: number,
    rows: number,
    cols: number,
    scale: number,
    past?: number,
  ): void;
  /**
   * What sampling needs per row of logits (rows, vocab): weights (rows, vocab) = exp((logits - rowmax) /
   * temperature), stats (rows, 2) = [log-sum-exp of the row, sum of its weights] (src/nn/sampler.ts).
   */
  samplingWeights(
    weights: Float32Array,
    stats: Float32Array,
    logits: Float32Array,
    rows: number,
    vocab: number,
    temperature: number,
  ): void;
  /** Per row of logits (rows, vocab): logprobs = log p(target) (0 when target is -1), entropy of the row. */
  tokenLogprobs(
    logits: Float32Array,
    targets: Int32Array,
    rows: number,
    vocab: number,
    logprobs: Float32Array,
    entropy: Float32Array,
  ): void;
  /** Overwrites logits with dloss/dlogits of loss = -(sum c log p(y) + sum e H) / normaliser (src/nn/loss.ts). */
  logitsGradient(
    logits: Float32Array,
    targets: Int32Array,
    rows: number,
    vocab: number,
    coefficients: Float32Array,
    entropyCoefficients: Float32Array | undefined,
    normaliser: number,
  ): void;
  /** out(rows, dim) = x * rstd * weight, rstd(rows) = 1 / sqrt(mean(x^2) + eps). */
  rmsnormForward(
    out: Float32Array,
    rstd: Float32Array,
    x: Float32Array,
    weight: Float32Array,
    rows: number,
    dim: number,
    eps: number,
  ): void;
  /** dx(rows, dim) += input gradient; dweight(dim) += weight gradient. */
  rmsnormBackward(
    dx: Float32Array,
    dweight: Float32Array,
    dout: Float32Array,
    x: Float32Array,
    weight: Float32Array,
    rstd: Float32Array,
    rows: number,
    dim: number,
  ): void;
  /**
   * Rotary embedding in place (Hugging Face Llama pairing i, i + headDim/2): each of `rows` rows (stride
   * rowStride) starts with `vectors` head vectors; row r is at position positions[r]; cos/sin are
   * (contextLength, headDim/2) tables. `inverse` applies the transposed rotation (the backward pass).
   */
  rope(
    x: Float32Array,
    rows: number,
    rowStride: number,
    vectors: number,
    headDim: number,
    cos: Float32Array,
    sin: Float32Array,
    positions: Int32Array,
    inverse: boolean,
  ): void;
  /** h(rows, hidden) = silu(gate) * up; gateUp(rows, 2 hidden) holds gate then up. */
  swigluForward(h: Float32Array, gateUp: Float32Array, rows: number, hidden: number): void;
  /**
   * Inference MLP input: h(rows, hidden) = silu(x . Wg^T) * (x . Wu^T) without storing the gate/up
   * activations; x is (rows, k), W^T (k, 2 hidden) gate then up columns in 8-column panels (panel stride
   * 8 k). Bit-identical to gemmPanels then swigluForward. Requires hidden % 8 == 0 and k <= 256.
   */
  linearSwiglu(h: Float32Array, x: Float32Array, wT: Float32Array, rows: number, hidden: number, k: number): void;
  /** dGateUp(rows, 2 hidden) from dh(rows, hidden). */
  swigluBackward(dGateUp: Float32Array, dh: Float32Array, gateUp: Float32Array, rows: number, hidden: number): void;
  /**
   * Writes the keys and values of `rows` qkv rows (stride 3 dModel: q, k, v) at positions firstPos.. of one
   * sequence's KV cache for one layer. With P = cachePositions(contextLength), `keys` is that layer's
   * (heads, headDim, P) block, each head's K^T stored in panels of 8 positions (position j, dimension d at
   * (j / 8) 8 headDim + 8 d + j % 8), and `values` its (heads, P, headDim) block.
   */
  storeKeysValues(
    keys: Float32Array,
    values: Float32Array,
    qkv: Float32Array,
    rows: number,
    firstPos: number,
    contextLength: number,
    dModel: number,
    heads: number,
  ): void;
  /**
   * Decoding attention: qkv row r (stride 3 dModel) is the newest token, at position positions[r], of the
   * sequence whose KV-cache block starts at cache[slots[r]] (src/nn/kv-cache.ts: per layer, keys then values,
   * dModel * P floats each); this layer's keys start layerOffset floats into the block. Stores the row's key
   * and value there, then att row r (stride dModel) = per head softmax(scale * q . K^T) . V over positions
   * 0..positions[r]. `cache` is a view from the heap's first float (its byteOffset is 0); `scratch` holds P
   * floats.
   */
  cachedAttention(
    att: Float32Array,
    qkv: Float32Array,
    rows: number,
    positions: Int32Array,
    slots: Int32Array,
    cache: Float32Array,
    layerOffset: number,
    contextLength: number,
    dModel: number,
    heads: number,
    scale: number,
    scratch: Float32Array,
  ): void;
}
