// The WebAssembly kernels against the reference kernels, on sizes that hit every tile and tail, and the
// row-independence that makes sharding deterministic.
import { describe, expect, it } from "vitest";
import { headForward } from "../../../src/nn/attention.js";
import { sharedHeap } from "../../../src/nn/heap.js";
import { referenceKernels } from "../../../src/nn/kernels/reference.js";
import { cachePositions } from "../../../src/nn/kernels/types.js";
import { KERNEL_SCRATCH_FLOATS, kernelsModule, wasmKernels } from "../../../src/nn/kernels/wasm.js";
import { transposeToPanels } from "../../../src/nn/params.js";
import { maxAbsDiff, randomArray } from "../helpers.js";

const heap = sharedHeap();
const fast = wasmKernels(heap.memory, kernelsModule(), heap.allocFloats(KERNEL_SCRATCH_FLOATS));
const ref = referenceKernels;

function onHeap(values: Float32Array): Float32Array {
  const view = heap.allocFloats(values.length);
  view.set(values);
  return view;
}

function ints(values: number[]): Int32Array {
  const view = heap.allocInts(values.length);
  view.set(values);
  return view;
}

describe("wasm kernels", () => {
  it.each([
    [1, 1, 1],
    [4, 8, 3],
    [7, 13, 5],
    [9, 20, 300],
    [33, 27, 17],
    [5, 4, 600],
  ])("matmul and matmulTransposedA agree with the reference (m=%i n=%i k=%i)", (m, n, k) => {
    const a = onHeap(randomArray(m * k, 1));
    const b = onHeap(randomArray(k * n, 2));
    for (const accumulate of [false, true]) {
      const start = randomArray(m * n, 3);
      const outFast = onHeap(start);
      const outRef = onHeap(start);
      fast.matmul(outFast, a, b, m, n, k, accumulate);
      ref.matmul(outRef, a, b, m, n, k, accumulate);
      expect(maxAbsDiff(outFast, outRef)).toBeLessThan(1e-4 * Math.sqrt(k));
    }
    const at = onHeap(randomArray(k * m, 4));
    const tFast = heap.allocFloats(m * n);
    const tRef = heap.allocFloats(m * n);
    fast.matmulTransposedA(tFast, at, b, m, n, k, false);
    ref.matmulTransposedA(tRef, at, b, m, n, k, false);
    expect(maxAbsDiff(tFast, tRef)).toBeLessThan(1e-4 * Math.sqrt(k));
  });

  it.each([
    [5, 8, 3],
    [9, 20, 300],
    [33, 27, 17],
  ])("gemmPanels on a panel-packed B equals gemm on the row-major B, bit for bit (m=%i n=%i k=%i)", (m, n, k) => {
    const a = onHeap(randomArray(m * k, 1));
    const rowMajor = randomArray(k * n, 2);
    const b = onHeap(rowMajor);
    const panels = heap.allocFloats(k * Math.ceil(n / 8) * 8);
    transposeToPanels(
      panels,
      Float32Array.from({ length: n * k }, (_, i) => rowMajor[(i % k) * n + Math.floor(i / k)]!),
      n,
      k,
    );
    for (const kernels of [fast, ref]) {
      const expected = heap.allocFloats(m * n);
      const got = heap.allocFloats(m * n);
      kernels.gemm(expected, n, a, k, 1, b, n, m, n, k, false);
      kernels.gemmPanels(got, n, a, k, 1, panels, 8 * k, m, n, k, false);
      expect(Array.from(got)).toEqual(Array.from(expected));
    }
  });

  it.each([
    [8, 16, 128],
    [13, 24, 40],
  ])("linearSwiglu equals gemmPanels then swigluForward, bit for bit (rows=%i hidden=%i k=%i)", (rows, hidden, k) => {
    const x = onHeap(randomArray(rows * k, 27));
    const w = randomArray(2 * hidden * k, 28, 0.3);
    const wT = heap.allocFloats(k * 2 * hidden);
    transposeToPanels(wT, w, 2 * hidden, k);
    for (const kernels of [fast, ref]) {
      const gateUp = heap.allocFloats(rows * 2 * hidden);
      const [expected, got] = [heap.allocFloats(rows * hidden), heap.allocFloats(rows * hidden)];
      kernels.gemmPanels(gateUp, 2 * hidden, x, k, 1, wT, 8 * k, rows, 2 * hidden, k, false);
      kernels.swigluForward(expected, gateUp, rows, hidden);
      kernels.linearSwiglu(got, x, wT, rows, hidden, k);
      expect(Array.from(got)).toEqual(Array.from(expected));
    }
  });

  it("matmul rows do not depend on the other rows in the call (bit-identical)", () => {
    const m = 11,
      n = 21,
      k = 300;
    const a = onHeap(randomArray(m * k, 5));
    const b = onHeap(randomArray(k * n, 6));
    const all = heap.allocFloats(m * n);
    fast.matmul(all, a, b, m, n, k, false);
    for (const [first, count] of [
      [0, 1],
      [3, 5],
      [10, 1],
      [2, 8],
    ] as const) {
      const part = heap.allocFloats(count * n);
      fast.matmul(part, a.subarray(first * k), b, count, n, k, false);
      expect(Array.from(part)).toEqual(Array.from(all.subarray(first * n, (first + count) * n)));
    }
  });

  it.each([
    [1, 4],
    [7, 32],
    [37, 13],
    [256, 32],
  ])("transpose equals the reference bit for bit (rows=%i cols=%i)", (rows, cols) => {
    const stride = cols + 5;
    const x = onHeap(randomArray(rows * stride, 30));
    const [t1, t2] = [heap.allocFloats(rows * cols), heap.allocFloats(rows * cols)];
    fast.transpose(t1, x, rows, cols, stride);
    ref.transpose(t2, x, rows, cols, stride);
    expect(Array.from(t1)).toEqual(Array.from(t2));
    expect(t2[3 * rows + rows - 1]).toBe(x[(rows - 1) * stride + 3]);
  });

  it("rmsnorm forward and backward agree", () => {
    const rows = 5,
      dim = 12;
    const x = onHeap(randomArray(rows * dim, 7));
    const w = onHeap(randomArray(dim, 8));
    const dout = onHeap(randomArray(rows * dim, 9));
    const [o1, o2, r1, r2] = [
      heap.allocFloats(rows * dim),
      heap.allocFloats(rows * dim),
      heap.allocFloats(rows),
      heap.allocFloats(rows),
    ];
    fast.rmsnormForward(o1, r1, x, w, rows, dim, 1e-5);
    ref.rmsnormForward(o2, r2, x, w, rows, dim, 1e-5);
    expect(maxAbsDiff(o1, o2)).toBeLessThan(1e-5);
    const [dx1, dx2, dw1, dw2] = [
      onHeap(randomArray(rows * dim, 10)),
      onHeap(randomArray(rows * dim, 10)),
      heap.allocFloats(dim),
      heap.allocFloats(dim),
    ];
    fast.rmsnormBackward(dx1, dw1, dout, x, w, r1, rows, dim);
    ref.rmsnormBackward(dx2, dw2, dout, x, w, r2, rows, dim);
    expect(maxAbsDiff(dx1, dx2)).toBeLessThan(1e-5);
    expect(maxAbsDiff(dw1, dw2)).toBeLessThan(1e-5);
  });

  it("rope, its inverse, and swiglu agree", () => {
    const rows = 3,
      hd = 8,
      vectors = 4,
      stride = 40,
      half = hd / 2;
    const cos = onHeap(Float32Array.from({ length: 10 * half }, (_, i) => Math.cos(i * 0.3)));
    const sin = onHeap(Float32Array.from({ length: 10 * half }, (_, i) => Math.sin(i * 0.3)));
    const pos = ints([0, 4, 9]);
    const x0 = randomArray(rows * stride, 11);
    const x1 = onHeap(x0);
    const x2 = onHeap(x0);
    fast.rope(x1, rows, stride, vectors, hd, cos, sin, pos, false);
    ref.rope(x2, rows, stride, vectors, hd, cos, sin, pos, false);
    expect(maxAbsDiff(x1, x2)).toBeLessThan(1e-6);
    fast.rope(x1, rows, stride, vectors, hd, cos, sin, pos, true);
    expect(maxAbsDiff(x1, x0)).toBeLessThan(1e-5);
    const hidden = 7;
    const gu = onHeap(randomArray(rows * 2 * hidden, 12, 4));
    const [h1, h2] = [heap.allocFloats(rows * hidden), heap.allocFloats(rows * hidden)];
    fast.swigluForward(h1, gu, rows, hidden);
    ref.swigluForward(h2, gu, rows, hidden);
    expect(maxAbsDiff(h1, h2)).toBeLessThan(1e-5);
    const dh = onHeap(randomArray(rows * hidden, 13));
    const [d1, d2] = [heap.allocFloats(rows * 2 * hidden), heap.allocFloats(rows * 2 * hidden)];
    fast.swigluBackward(d1, dh, gu, rows, hidden);
    ref.swigluBackward(d2, dh, gu, rows, hidden);
    expect(maxAbsDiff(d1, d2)).toBeLessThan(1e-5);
  });

  it.each([4, 8, 20, 32, 36])(
    "the KV cache and decoding attention agree with the reference and with the whole-sequence pass (headDim %i)",
    (hd) => {
      const heads = 2,
        C = heads * hd,
        T = 37,
        n = 37,
        P = cachePositions(T),
        scale = 1 / Math.sqrt(hd);
      const qkv = onHeap(randomArray(n * 3 * C, 14, 2));
      // Two blocks of a one-layer cache each (keys then values); the sequence goes into the second.
      const [b1, b2] = [heap.allocFloats(2 * 2 * C * P), heap.allocFloats(2 * 2 * C * P)];
      const [k1, v1, k2, v2] = [
        b1.subarray(2 * C * P, 3 * C * P),
        b1.subarray(3 * C * P),
        b2.subarray(2 * C * P, 3 * C * P),
        b2.subarray(3 * C * P),
      ];
      fast.storeKeysValues(k1, v1, qkv, n, 0, T, C, heads);
      ref.storeKeysValues(k2, v2, qkv, n, 0, T, C, heads);
      expect(Array.from(b1)).toEqual(Array.from(b2));
      expect(k1[8 * hd + 8 * 1 + 3]).toBe(qkv[11 * 3 * C + C + 1]); // key 11, dimension 1 of head 0: panel 1, row 1, lane 3
      expect(v1[hd * P + 3 * hd + 1]).toBe(qkv[3 * 3 * C + 2 * C + hd + 1]); // value 3, dimension 1 of head 1
      // Decoding rows: the token at position p (stores its key and value again, attends 0..p), the block addressed by its float offset.
      const picks = [0, 5, 36, 17];
      const rows = onHeap(
        Float32Array.from(picks.flatMap((p) => Array.from(qkv.subarray(p * 3 * C, (p + 1) * 3 * C)))),
      );
      const positions = ints(picks);
      const [a1, a2] = [heap.allocFloats(picks.length * C), heap.allocFloats(picks.length * C)];
      const memory = new Float32Array(heap.memory.buffer);
      fast.cachedAttention(
        a1,
        rows,
        picks.length,
        positions,
        ints(picks.map(() => b1.byteOffset / 4)),
        memory,
        2 * C * P,
        T,
        C,
        heads,
        scale,
        heap.allocFloats(P),
      );
      ref.cachedAttention(
        a2,
        rows,
        picks.length,
        positions,
        ints(picks.map(() => b2.byteOffset / 4)),
        memory,
        2 * C * P,
        T,
        C,
        heads,
        scale,
        heap.allocFloats(P),
      );
      expect(maxAbsDiff(a1, a2)).toBeLessThan(1e-5);
      expect(Array.from(b1)).toEqual(Array.from(b2));
      expect(Array.from(b1.subarray(0, 2 * C * P)).every((x) => x === 0)).toBe(true); // the other layer untouched
      // The whole-sequence pass over the cached blocks (what a prefill does) gives the same rows.
      const full = heap.allocFloats(n * C);
      for (let h = 0; h < heads; h++) {
        headForward(
          fast,
          qkv.subarray(h * hd),
          3 * C,
          { panels: k1.subarray(h * hd * P) },
          v1.subarray(h * hd * P),
          hd,
          full.subarray(h * hd),
          C,
          heap.allocFloats(n * n),
          n,
          hd,
          scale,
        );
      }
      picks.forEach((p, r) =>
        expect(maxAbsDiff(full.subarray(p * C, (p + 1) * C), a1.subarray(r * C, (r + 1) * C))).toBeLessThan(1e-5),
      );
    },
  );

  it("whole-sequence causal attention agrees (row-major k^T; blocks of 16 rows with a tail)", () => {
    const n = 37,
      hd = 8,
      ldk = n + 3,
      qStride = 3 * hd,
      scale = 0.3;
    const q = onHeap(randomArray(n * qStride, 22, 2));
    const kT = onHeap(randomArray(hd * ldk, 23, 2));
    const v = onHeap(randomArray(n * hd, 24));
    const [o1, o2, p1, p2] = [
      heap.allocFloats(n * hd),
      heap.allocFloats(n * hd),
      onHeap(randomArray(n * n, 25)),
      onHeap(randomArray(n * n, 25)),
    ];
    fast.causalAttention(o1, hd, q, qStride, kT, ldk, 8, v, hd, p1, n, hd, scale, 0, true);
    ref.causalAttention(o2, hd, q, qStride, kT, ldk, 8, v, hd, p2, n, hd, scale, 0, true);
    expect(maxAbsDiff(p1, p2)).toBeLessThan(1e-6);
    expect(maxAbsDiff(o1, o2)).toBeLessThan(1e-5);
    expect(p1[5 * n + 6]).toBe(0); // above the diagonal
  });

  it.each([
    [1, 20],
    [16, 21],
    [19, 1],
    [0, 37],
  ])(
    "causal attention of a chunk after %i cached positions (%i rows) equals those rows of the whole pass",
    (past, n) => {
      const total = past + n,
        hd = 8,
        ldk = total + 3,
        qStride = 3 * hd,
        scale = 0.3;
      const q = onHeap(randomArray(total * qStride, 26, 2));
      const kT = onHeap(randomArray(hd * ldk, 27, 2));
      const v = onHeap(randomArray(total * hd, 28));
      const whole = heap.allocFloats(total * hd);
      fast.causalAttention(
        whole,
        hd,
        q,
        qStride,
        kT,
        ldk,
        8,
        v,
        hd,
        heap.allocFloats(total * total),
        total,
        hd,
        scale,
        0,
        true,
      );
      const [o1, o2] = [heap.allocFloats(n * hd), heap.allocFloats(n * hd)];
      const [p1, p2] = [heap.allocFloats(16 * total), heap.allocFloats(16 * total)];
      fast.causalAttention(
        o1,
        hd,
        q.subarray(past * qStride),
        qStride,
        kT,
        ldk,
        8,
        v,
        hd,
        p1,
        n,
        hd,
        scale,
        past,
        false,
      );
      ref.causalAttention(
        o2,
        hd,
        q.subarray(past * qStride),
        qStride,
        kT,
        ldk,
        8,
        v,
        hd,
        p2,
        n,
        hd,
        scale,
        past,
        false,
      );
      expect(maxAbsDiff(o1, o2)).toBeLessThan(1e-5);
      // Bit for bit: a row's scores, softmax and weighted sum do not depend on where its block starts.
      expect(Array.from(o1)).toEqual(Array.from(whole.subarray(past * hd)));
    },
  );

  it.each([false, true])("token log-probs, entropy and the logits gradient agree (entropy term: %s)", (withEntropy) => {
    const rows = 6,
      vocab = 23;
    const logits = randomArray(rows * vocab, 21, 4);
    const targets = ints([3, -1, 22, 0, 7, 7]);
    const [l1, l2] = [onHeap(logits), onHeap(logits)];
    const [lp1, lp2, h1, h2] = [
      heap.allocFloats(rows),
      heap.allocFloats(rows),
      heap.allocFloats(rows),
      heap.allocFloats(rows),
    ];
    fast.tokenLogprobs(l1, targets, rows, vocab, lp1, h1);
    ref.tokenLogprobs(l2, targets, rows, vocab, lp2, h2);
    expect(maxAbsDiff(lp1, lp2)).toBeLessThan(1e-5);
    expect(maxAbsDiff(h1, h2)).toBeLessThan(1e-5);
    expect(lp1[1]).toBe(0);
    const coefficients = onHeap(Float32Array.from([1, 0, -0.5, 2, 0, 1]));
    const entropyCoefficients = withEntropy ? onHeap(Float32Array.from([0.1, 0.3, 0, -0.2, 0, 0])) : undefined;
    fast.logitsGradient(l1, targets, rows, vocab, coefficients, entropyCoefficients, 3);
    ref.logitsGradient(l2, targets, rows, vocab, coefficients, entropyCoefficients, 3);
    expect(maxAbsDiff(l1, l2)).toBeLessThan(1e-6);
    expect(Array.from(l1.subarray(4 * vocab, 5 * vocab)).every((x) => x === 0)).toBe(true);
  });

  it.each([1, 0.7])("sampling weights and log-sum-exp agree (temperature %f)", (temperature) => {
    const rows = 3,
      vocab = 23;
    const logits = onHeap(randomArray(rows * vocab, 26, 6));
    const [w1, w2, s1, s2] = [
      heap.allocFloats(rows * vocab),
      heap.allocFloats(rows * vocab),
      heap.allocFloats(2 * rows),
      heap.allocFloats(2 * rows),
    ];
    fast.samplingWeights(w1, s1, logits, rows, vocab, temperature);
    ref.samplingWeights(w2, s2, logits, rows, vocab, temperature);
    expect(maxAbsDiff(w1, w2)).toBeLessThan(1e-6);
    expect(maxAbsDiff(s1, s2)).toBeLessThan(1e-5);
    expect(Math.max(...Array.from(w1.subarray(0, vocab)))).toBe(1); // the row maximum has weight exp(0)
  });

  it("strided gemm and the causal softmax kernels agree", () => {
    const [m, n, k, ars, acs, ldb, ldc] = [13, 11, 9, 2, 31, 15, 14];
    const a = onHeap(randomArray(m * ars + k * acs, 16));
    const b = onHeap(randomArray(k * ldb, 17));
    const start = randomArray(m * ldc, 18);
    const [c1, c2] = [onHeap(start), onHeap(start)];
    fast.gemm(c1, ldc, a, ars, acs, b, ldb, m, n, k, true);
    ref.gemm(c2, ldc, a, ars, acs, b, ldb, m, n, k, true);
    expect(maxAbsDiff(c1, c2)).toBeLessThan(1e-5);
    const rows = 10,
      ld = 12;
    const scores = randomArray(rows * ld, 19, 3);
    const [s1, s2] = [onHeap(scores), onHeap(scores)];
    fast.causalSoftmax(s1, ld, rows, 11, 0.5);
    ref.causalSoftmax(s2, ld, rows, 11, 0.5);
    expect(maxAbsDiff(s1, s2)).toBeLessThan(1e-6);
    expect(s1[2 * ld + 3]).toBe(0);
    expect(s1[2 * ld + 11]).toBe(scores[2 * ld + 11]); // past `cols`: untouched
    const grad = randomArray(rows * ld, 20);
    const [d1, d2] = [onHeap(grad), onHeap(grad)];
    fast.causalSoftmaxBackward(d1, s1, ld, rows, 11, 0.5);
    ref.causalSoftmaxBackward(d2, s2, ld, rows, 11, 0.5);
    expect(maxAbsDiff(d1, d2)).toBeLessThan(1e-6);
    // Query rows at positions past.. (an output span, src/nn/outputs.ts): row i keeps columns 0..past+i.
    const past = 5,
      spanRows = 4,
      width = past + spanRows;
    const probs = randomArray(spanRows * width, 21).map(Math.abs);
    const [p1, e1, e2] = [
      onHeap(probs),
      onHeap(randomArray(spanRows * width, 22)),
      onHeap(randomArray(spanRows * width, 22)),
    ];
    fast.causalSoftmaxBackward(e1, p1, width, spanRows, width, 0.5, past);
    ref.causalSoftmaxBackward(e2, p1, width, spanRows, width, 0.5, past);
    expect(maxAbsDiff(e1, e2)).toBeLessThan(1e-6);
    expect(e1[past + 1]).toBe(0);
    expect(e1[past]).not.toBe(0);
  });
});
