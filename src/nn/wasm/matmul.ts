// AssemblyScript (compiled to WebAssembly SIMD by `npm run build:wasm`, not by tsc): the matrix product.
//
//   C(m, n) = [C +] A(m, k) . B(k, n)
//
// All pointers are byte offsets into the shared memory; sizes and strides count floats. A is read through
// two strides, element (i, p) at A[i * ars + p * acs], so the same kernel computes A.B (ars = k, acs = 1)
// and A^T.B (A stored (k, m): ars = 1, acs = m), which is what the weight gradients need. C is row-major
// with leading dimension ldc. B is read in 8-column panels: element (p, j) at
// B[(j / 8) * panelStride + p * ldb + j % 8], which covers a row-major B (panelStride = 8, ldb its leading
// dimension) and a panel-packed B (each 8 columns stored as one contiguous (k, 8) block: ldb = 8,
// panelStride = 8 * rows of the block), the layout the forward weights and the cached keys use so that a
// product with few rows streams B sequentially from memory.
//
// Every output element is computed the same way wherever it falls in the blocking (full 4x8 tile, row tail
// or column tail): one accumulator per element, k ascending in blocks of KC, one mul then one add per step.
// So a row's result does not depend on how many rows are in the call; this is what makes sharding the batch
// over threads bit-identical to one thread.
//
// Blocking: for each KC-deep slab and each MC rows, the rows' A values are first packed into 4-row panels
// (A(i, p) for the 4 rows side by side), so the 4x8 tile reads A with one pointer and immediate offsets;
// this matters most for A^T, whose rows are far apart. The panel buffer belongs to the calling thread
// (each thread's instance gets its own through setScratch; globals are per instance).

// Two builds come from this file: kernels.wasm (SIMD128: multiply, then add) and kernels-fma.wasm (built
// with relaxed SIMD: relaxed_madd, a fused multiply-add where the CPU has one). Every element goes through
// the same madd in every path, so row independence holds in both builds.
@inline export function madd(a: v128, b: v128, c: v128): v128 {
  if (ASC_FEATURE_RELAXED_SIMD) return f32x4.relaxed_madd(a, b, c);
  return f32x4.add(c, f32x4.mul(a, b));
}

export const KC: i32 = 256;
export const MC: i32 = 64;
/** Bytes of the per-thread scratch the kernels need (the packed A panels). */
export const SCRATCH_BYTES: i32 = MC * KC * 4;

/** Elements of C above which the row blocks go first (C no longer fits in half of a 2 MB L2). */
const C_ROWS_FIRST: u64 = 256 * 1024;

export let scratch: usize = 0;

/** Gives this instance (this thread) its scratch area of SCRATCH_BYTES. */
export function setScratch(pointer: usize): void {
  scratch = pointer;
}

/** Writes (or adds, when acc) a 4x8 tile's accumulators to C rows c, c + lc, c + 2 lc, c + 3 lc. */
/** A 4x4 block of f32 transposed through registers: row i of src (src + i * srcStride bytes) becomes column i
 * of dst (rows dst + j * dstStride bytes). */
@inline export function transpose4x4(dst: usize, dstStride: usize, src: usize, srcStride: usize): void {
  const r0 = v128.load(src);
  const r1 = v128.load(src + srcStride);
  const r2 = v128.load(src + 2 * srcStride);
  const r3 = v128.load(src + 3 * srcStride);
  const t0 = v128.shuffle<f32>(r0, r1, 0, 4, 1, 5);
  const t1 = v128.shuffle<f32>(r2, r3, 0, 4, 1, 5);
  const t2 = v128.shuffle<f32>(r0, r1, 2, 6, 3, 7);
  const t3 = v128.shuffle<f32>(r2, r3, 2, 6, 3, 7);
  v128.store(dst, v128.shuffle<f32>(t0, t1, 0, 1, 4, 5));
  v128.store(dst + dstStride, v128.shuffle<f32>(t0, t1, 2, 3, 6, 7));
  v128.store(dst + 2 * dstStride, v128.shuffle<f32>(t2, t3, 0, 1, 4, 5));
  v128.store(dst + 3 * dstStride, v128.shuffle<f32>(t2, t3, 2, 3, 6, 7));
}

@inline function store4x8(c: usize, lc: usize, acc: bool, c00: v128, c01: v128, c10: v128, c11: v128, c20: v128, c21: v128, c30: v128, c31: v128): void {
  if (acc) {
    c00 = f32x4.add(v128.load(c), c00);
    c01 = f32x4.add(v128.load(c, 16), c01);
    c10 = f32x4.add(v128.load(c + lc), c10);
    c11 = f32x4.add(v128.load(c + lc, 16), c11);
    c20 = f32x4.add(v128.load(c + 2 * lc), c20);
    c21 = f32x4.add(v128.load(c + 2 * lc, 16), c21);
    c30 = f32x4.add(v128.load(c + 3 * lc), c30);
    c31 = f32x4.add(v128.load(c + 3 * lc, 16), c31);
  }
  v128.store(c, c00);
  v128.store(c, c01, 16);
  v128.store(c + lc, c10);
  v128.store(c + lc, c11, 16);
  v128.store(c + 2 * lc, c20);
  v128.store(c + 2 * lc, c21, 16);
  v128.store(c + 3 * lc, c30);
  v128.store(c + 3 * lc, c31, 16);
}

/**
 * The 4x8 tile over a packed panel: A(r, p) at a + 16 p + 4 r. Not inlined: as its own function V8 keeps
 * the loop's pointers and bound in registers (about 2% faster on the big products than inlined in slab).
 */
function panel4x8(c: usize, a: usize, b: usize, k: i32, lb: usize, lc: usize, acc: bool): void {
  let c00 = f32x4.splat(0), c01 = f32x4.splat(0), c10 = f32x4.splat(0), c11 = f32x4.splat(0);
  let c20 = f32x4.splat(0), c21 = f32x4.splat(0), c30 = f32x4.splat(0), c31 = f32x4.splat(0);
  let pa = a;
  let pb = b;
  const end = a + (<usize>k << 4);
  while (pa < end) {
    const b0 = v128.load(pb);
    const b1 = v128.load(pb, 16);
    let x = v128.load32_splat(pa);
    c00 = madd(x, b0, c00);
    c01 = madd(x, b1, c01);
    x = v128.load32_splat(pa, 4);
    c10 = madd(x, b0, c10);
    c11 = madd(x, b1, c11);
    x = v128.load32_splat(pa, 8);
    c20 = madd(x, b0, c20);
    c21 = madd(x, b1, c21);
    x = v128.load32_splat(pa, 12);
    c30 = madd(x, b0, c30);
    c31 = madd(x, b1, c31);
    pa += 16;
    pb += lb;
  }
  store4x8(c, lc, acc, c00, c01, c10, c11, c20, c21, c30, c31);
}

/**
 * Packs `tiles` 4-row panels of A (rows from a, stride rs; k values, stride cs) into the scratch, by vectors:
 * when the rows are adjacent (A^T of the weight gradients: rs = 4 bytes) a panel's 4 values of step p are
 * one load; when the steps are (row-major A: cs = 4 bytes) 4 steps of the 4 rows are a 4x4 transpose.
 */
export function packPanels(a: usize, tiles: i32, k: i32, rs: usize, cs: usize): void {
  let out = scratch;
  if (rs == 4) {
    for (let t = 0; t < tiles; t++) {
      let pa = a + (<usize>t << 4);
      for (let p = 0; p < k; p++) {
        v128.store(out, v128.load(pa));
        out += 16;
        pa += cs;
      }
    }
    return;
  }
  const k4 = cs == 4 ? k & ~3 : 0;
  for (let t = 0; t < tiles; t++) {
    let pa = a + <usize>(4 * t) * rs;
    // Row-major A: 4 steps of the 4 rows at a time, a 4x4 transpose through registers.
    for (let p = 0; p < k4; p += 4) {
      transpose4x4(out, 16, pa, rs);
      out += 64;
      pa += 16;
    }
    for (let p = k4; p < k; p++) {
      store<f32>(out, load<f32>(pa));
      store<f32>(out, load<f32>(pa + rs), 4);
      store<f32>(out, load<f32>(pa + 2 * rs), 8);
      store<f32>(out, load<f32>(pa + 3 * rs), 12);
      out += 16;
      pa += cs;
    }
  }
}

@inline function tile4x8(c: usize, a: usize, b: usize, k: i32, rs: usize, cs: usize, lb: usize, lc: usize, acc: bool): void {
  let c00 = f32x4.splat(0), c01 = f32x4.splat(0), c10 = f32x4.splat(0), c11 = f32x4.splat(0);
  let c20 = f32x4.splat(0), c21 = f32x4.splat(0), c30 = f32x4.splat(0), c31 = f32x4.splat(0);
  let pa = a;
  let pb = b;
  for (let p = 0; p < k; p++) {
    const b0 = v128.load(pb);
    const b1 = v128.load(pb, 16);
    let x = v128.load32_splat(pa);
    c00 = madd(x, b0, c00);
    c01 = madd(x, b1, c01);
    x = v128.load32_splat(pa + rs);
    c10 = madd(x, b0, c10);
    c11 = madd(x, b1, c11);
    x = v128.load32_splat(pa + 2 * rs);
    c20 = madd(x, b0, c20);
    c21 = madd(x, b1, c21);
    x = v128.load32_splat(pa + 3 * rs);
    c30 = madd(x, b0, c30);
    c31 = madd(x, b1, c31);
    pa += cs;
    pb += lb;
  }
  store4x8(c, lc, acc, c00, c01, c10, c11, c20, c21, c30, c31);
}

@inline function tile1x8(c: usize, a: usize, b: usize, k: i32, cs: usize, lb: usize, acc: bool): void {
  let c0 = f32x4.splat(0), c1 = f32x4.splat(0);
  let pa = a;
  let pb = b;
  for (let p = 0; p < k; p++) {
    const x = v128.load32_splat(pa);
    c0 = madd(x, v128.load(pb), c0);
    c1 = madd(x, v128.load(pb, 16), c1);
    pa += cs;
    pb += lb;
  }
  if (acc) {
    c0 = f32x4.add(v128.load(c), c0);
    c1 = f32x4.add(v128.load(c, 16), c1);
  }
  v128.store(c, c0);
  v128.store(c, c1, 16);
}

@inline function tile1x4(c: usize, a: usize, b: usize, k: i32, cs: usize, lb: usize, acc: bool): void {
  let c0 = f32x4.splat(0);
  let pa = a;
  let pb = b;
  for (let p = 0; p < k; p++) {
    c0 = madd(v128.load32_splat(pa), v128.load(pb), c0);
    pa += cs;
    pb += lb;
  }
  if (acc) c0 = f32x4.add(v128.load(c), c0);
  v128.store(c, c0);
}

@inline function tile1x1(c: usize, a: usize, b: usize, k: i32, cs: usize, lb: usize, acc: bool): void {
  let c0: f32 = 0;
  let pa = a;
  let pb = b;
  for (let p = 0; p < k; p++) {
    c0 = f32x4.extract_lane(madd(f32x4.splat(load<f32>(pa)), f32x4.splat(load<f32>(pb)), f32x4.splat(c0)), 0);
    pa += cs;
    pb += lb;
  }
  if (acc) c0 = load<f32>(c) + c0;
  store<f32>(c, c0);
}

/** Byte offset of column j of B: its panel, then its place in the panel. */
@inline function column(j: i32, ps: usize): usize {
  return <usize>(j >> 3) * ps + (<usize>(j & 7) << 2);
}

/** One KC-deep slab of the product over rows [i0, i1) and all n columns. */
function slab(c: usize, a: usize, b: usize, i0: i32, i1: i32, n: i32, k: i32, rs: usize, cs: usize, lb: usize, ps: usize, lc: usize, acc: bool): void {
  const n8 = n & ~7;
  const n4 = n & ~3;
  const tiles = (i1 - i0) >> 2;
  const packed = scratch != 0 && n8 >= 16;
  if (packed) packPanels(a + <usize>i0 * rs, tiles, k, rs, cs);
  for (let j = 0; j < n8; j += 8) {
    const cj = c + (<usize>j << 2);
    const bj = b + column(j, ps);
    let i = i0;
    if (packed) {
      for (let t = 0; t < tiles; t++, i += 4) panel4x8(cj + <usize>i * lc, scratch + ((<usize>t * k) << 4), bj, k, lb, lc, acc);
    } else {
      for (; i + 4 <= i1; i += 4) tile4x8(cj + <usize>i * lc, a + <usize>i * rs, bj, k, rs, cs, lb, lc, acc);
    }
    for (; i < i1; i++) tile1x8(cj + <usize>i * lc, a + <usize>i * rs, bj, k, cs, lb, acc);
  }
  for (let j = n8; j < n4; j += 4) {
    for (let i = i0; i < i1; i++) tile1x4(c + <usize>i * lc + (<usize>j << 2), a + <usize>i * rs, b + column(j, ps), k, cs, lb, acc);
  }
  for (let j = n4; j < n; j++) {
    for (let i = i0; i < i1; i++) tile1x1(c + <usize>i * lc + (<usize>j << 2), a + <usize>i * rs, b + column(j, ps), k, cs, lb, acc);
  }
}

export function matmul(c: usize, a: usize, b: usize, m: i32, n: i32, k: i32, ars: i32, acs: i32, ldb: i32, ldc: i32, accumulate: i32, panelStride: i32): void {
  const rs = <usize>ars << 2;
  const cs = <usize>acs << 2;
  const lb = <usize>ldb << 2;
  const ps = <usize>panelStride << 2;
  const lc = <usize>ldc << 2;
  if (k == 0) {
    if (accumulate == 0) for (let i = 0; i < m; i++) memory.fill(c + <usize>i * lc, 0, <usize>n << 2);
    return;
  }
  // Each element adds up its KC-deep slabs in k order either way. A C too big for L2 (tall products: the
  // backward's dx, a forward with K > KC) takes its row blocks one by one, each through every slab while it
  // is hot; a small C (the weight gradients) stays in L2 while each slab of B serves every row block.
  if (<u64>m * <u64>n > C_ROWS_FIRST) {
    for (let i0 = 0; i0 < m; i0 += MC) {
      for (let k0 = 0; k0 < k; k0 += KC) {
        slab(c, a + <usize>k0 * cs, b + <usize>k0 * lb, i0, min(i0 + MC, m), n, min(KC, k - k0), rs, cs, lb, ps, lc, accumulate != 0 || k0 > 0);
      }
    }
    return;
  }
  for (let k0 = 0; k0 < k; k0 += KC) {
    const kk = min(KC, k - k0);
    const acc = accumulate != 0 || k0 > 0;
    const a0 = a + <usize>k0 * cs;
    const b0 = b + <usize>k0 * lb;
    for (let i0 = 0; i0 < m; i0 += MC) slab(c, a0, b0, i0, min(i0 + MC, m), n, kk, rs, cs, lb, ps, lc, acc);
  }
}
