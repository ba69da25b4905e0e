// AssemblyScript (compiled to WebAssembly SIMD by `npm run build:wasm`): the first half of the SwiGLU MLP
// fused for inference (prefill and decoding, where no backward pass needs the (rows, 2F) gate/up
// activations): h = silu(x . Wg^T) * (x . Wu^T), each 2-row x 8-column tile of gate and of up computed side
// by side in registers and turned into h at once, so the pre-activations never go to memory.
//
// Every element goes through the same arithmetic as matmul (k ascending, one madd per step) followed by
// swigluForward's formula, so h is bit-identical to the unfused pair. Requires k <= KC (one slab) and hidden
// a multiple of 8; W^T (gate columns, then up columns) is in 8-column panels of panelStride floats.
import { KC, MC, madd, packPanels, scratch } from "./matmul";
import { sigmoid4 } from "./layers";

/** silu(g) * u on 4 lanes, as swigluForward computes it. */
@inline function swiglu4(g: v128, u: v128): v128 {
  return f32x4.mul(f32x4.mul(g, sigmoid4(g)), u);
}

/** Two rows (A at a, a + ra bytes; k steps of cs bytes) x 8 gate and 8 up columns -> h rows at c, c + lc. */
@inline function tile2x8x2(c: usize, a: usize, ra: usize, cs: usize, bg: usize, bu: usize, k: i32, lc: usize): void {
  let g00 = f32x4.splat(0), g01 = f32x4.splat(0), g10 = f32x4.splat(0), g11 = f32x4.splat(0);
  let u00 = f32x4.splat(0), u01 = f32x4.splat(0), u10 = f32x4.splat(0), u11 = f32x4.splat(0);
  let pa = a;
  let pg = bg;
  let pu = bu;
  for (let p = 0; p < k; p++) {
    const gb0 = v128.load(pg);
    const gb1 = v128.load(pg, 16);
    const ub0 = v128.load(pu);
    const ub1 = v128.load(pu, 16);
    let x = v128.load32_splat(pa);
    g00 = madd(x, gb0, g00);
    g01 = madd(x, gb1, g01);
    u00 = madd(x, ub0, u00);
    u01 = madd(x, ub1, u01);
    x = v128.load32_splat(pa + ra);
    g10 = madd(x, gb0, g10);
    g11 = madd(x, gb1, g11);
    u10 = madd(x, ub0, u10);
    u11 = madd(x, ub1, u11);
    pa += cs;
    pg += 32;
    pu += 32;
  }
  v128.store(c, swiglu4(g00, u00));
  v128.store(c, swiglu4(g01, u01), 16);
  v128.store(c + lc, swiglu4(g10, u10));
  v128.store(c + lc, swiglu4(g11, u11), 16);
}

/** One row x 8 gate and 8 up columns (row tails). */
@inline function tile1x8x2(c: usize, a: usize, cs: usize, bg: usize, bu: usize, k: i32): void {
  let g0 = f32x4.splat(0), g1 = f32x4.splat(0), u0 = f32x4.splat(0), u1 = f32x4.splat(0);
  let pa = a;
  let pg = bg;
  let pu = bu;
  for (let p = 0; p < k; p++) {
    const x = v128.load32_splat(pa);
    g0 = madd(x, v128.load(pg), g0);
    g1 = madd(x, v128.load(pg, 16), g1);
    u0 = madd(x, v128.load(pu), u0);
    u1 = madd(x, v128.load(pu, 16), u1);
    pa += cs;
    pg += 32;
    pu += 32;
  }
  v128.store(c, swiglu4(g0, u0));
  v128.store(c, swiglu4(g1, u1), 16);
}

/** h(m, hidden) = silu(x . Wg^T) * (x . Wu^T), x (m, k) row-major, W^T (k, 2 hidden) in 8-column panels. */
export function linearSwiglu(h: usize, x: usize, wT: usize, m: i32, hidden: i32, k: i32, panelStride: i32): void {
  const rs = <usize>k << 2;
  const ps = <usize>panelStride << 2;
  const up = <usize>(hidden >> 3) * ps;
  const lc = <usize>hidden << 2;
  for (let i0 = 0; i0 < m; i0 += MC) {
    const i1 = min(i0 + MC, m);
    const tiles = (i1 - i0) >> 2;
    const packed = scratch != 0 && k <= KC;
    if (packed) packPanels(x + <usize>i0 * rs, tiles, k, rs, 4);
    for (let j = 0; j < hidden; j += 8) {
      const bg = wT + <usize>(j >> 3) * ps;
      const bu = bg + up;
      const cj = h + (<usize>j << 2);
      let i = i0;
      if (packed) {
        // Packed panel: A(r, p) at panel + 16 p + 4 r.
        for (let t = 0; t < tiles; t++, i += 4) {
          const panel = scratch + ((<usize>t * k) << 4);
          tile2x8x2(cj + <usize>i * lc, panel, 4, 16, bg, bu, k, lc);
          tile2x8x2(cj + <usize>(i + 2) * lc, panel + 8, 4, 16, bg, bu, k, lc);
        }
      }
      for (; i < i1; i++) tile1x8x2(cj + <usize>i * lc, x + <usize>i * rs, 4, bg, bu, k);
    }
  }
}
